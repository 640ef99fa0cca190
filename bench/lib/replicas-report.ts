/**
 * The replicas section of `npm run bench` (bench/replicas.ts): its sizes (full by default, smaller
 * by flag), its figures, and their Markdown between markers in docs/benchmarks.md.
 */
import type { WriteLatency } from '../write-latency.ts';
import type { ConformanceTime } from './conformance-time.ts';
import { median, type LoadResult } from './load.ts';

export interface ReplicasSizes {
  /** wrk's connections through nginx. */
  connections: number;
  /** Interleaved load runs of one and of three replicas. */
  runs: number;
  runSeconds: number;
  /** Confirmed subscribers mailed about one incident. */
  subscribers: number;
  /** Timed API writes per dialect (bench/write-latency.ts). */
  writes: number;
  /** How many of the conformance files to time (all of them by default). */
  conformanceFiles: number;
}

/** What the issue asks for (issue 29, "How to measure it"). */
export const FULL_SIZES: ReplicasSizes = { connections: 50, runs: 3, runSeconds: 5, subscribers: 10_000, writes: 400, conformanceFiles: 8 };

/** `--quick`: every part once, small, to try the section out (about a minute and a half). */
export const QUICK_SIZES: ReplicasSizes = { connections: 20, runs: 1, runSeconds: 2, subscribers: 200, writes: 30, conformanceFiles: 2 };

const FLAGS: Record<string, keyof ReplicasSizes> = { '--runs': 'runs', '--run-seconds': 'runSeconds', '--subscribers': 'subscribers', '--writes': 'writes', '--conformance-files': 'conformanceFiles' };

/**
 * The sizes from the command line: `--quick` for the small set, then any of `--runs N`,
 * `--run-seconds N`, `--subscribers N`, `--writes N`, `--conformance-files N` on top. Other
 * arguments (`--replicas-only`) are left to the caller.
 */
export function parseReplicasArgs(argv: readonly string[]): ReplicasSizes {
  const sizes = { ...(argv.includes('--quick') ? QUICK_SIZES : FULL_SIZES) };
  for (let index = 0; index < argv.length; index += 1) {
    const key = FLAGS[argv[index]!];
    if (key === undefined) continue;
    const value = Number(argv[index + 1]);
    if (!Number.isInteger(value) || value < 1) throw new Error(`${argv[index]} needs a whole number of at least 1, not ${JSON.stringify(argv[index + 1] ?? '')}`);
    sizes[key] = value;
    index += 1;
  }
  return sizes;
}

/** The kill measured on the checks: a short-interval monitor whose check the killed replica held. */
export interface ChecksResume {
  intervalSeconds: number;
  /** Which replica was killed (it held the check) and which recorded the next one. */
  killedReplica: number;
  resumedBy: number | null;
  /** From the SIGKILL to the shared due time the killed replica had set (its claim). */
  dueAfterKillSeconds: number;
  /** From the SIGKILL to the next check of that monitor recorded in the shared store; null: none within the bound. */
  resumedAfterSeconds: number | null;
  /** Between the last check before the kill and the first after it. */
  gapSeconds: number | null;
}

export interface FanOut {
  subscribers: number;
  mailed: number;
  twice: number;
  /** From the incident's creation to the last subscriber's mail; null: not all within the bound. */
  seconds: number | null;
  limitSeconds: number;
  sentPerProcess: number[];
}

export interface ReplicasResult {
  at: string;
  machine: string;
  generator: string;
  sizes: ReplicasSizes;
  /** The 1-minute load average when the section started and when it ended. */
  loadAverage: { start: number; end: number };
  oneReplica: LoadResult[];
  threeReplicas: LoadResult[];
  killed: LoadResult;
  checksResume: ChecksResume;
  fanOut: FanOut;
  conformance: ConformanceTime[];
  writeLatency: WriteLatency;
  durationSeconds: number;
}

const START = '<!-- replicas:start -->';
const END = '<!-- replicas:end -->';

const seconds = (value: number | null, digits = 1) => (value === null ? 'n/a' : `${value.toFixed(digits)} s`);
const ratio = (a: number, b: number) => (b > 0 ? `× ${(a / b).toFixed(2)}` : 'n/a');
const count = (value: number) => value.toLocaleString('en');

export function replicasSection(result: ReplicasResult): string {
  const { sizes, killed, checksResume: resume, fanOut, writeLatency } = result;
  const row = (name: string, runs: LoadResult[]) =>
    `| ${name} | ${Math.round(median(runs.map((run) => run.requestsPerSecond)))} | ${median(runs.map((run) => run.p99Ms)).toFixed(1)} | ${runs.reduce((sum, run) => sum + run.errors + run.non2xx, 0)} |`;
  const sqlite = result.conformance.find((time) => time.dialect === 'sqlite');
  const pg = result.conformance.find((time) => time.dialect === 'postgres');
  const suiteRows =
    sqlite && pg
      ? [
          `| Conformance suite, \`vitest run\` of ${sqlite.files} files (${sqlite.tests} tests per dialect), wall | ${seconds(sqlite.wallSeconds)} | ${seconds(pg.wallSeconds)} | ${ratio(pg.wallSeconds, sqlite.wallSeconds)} |`,
          `| the same, the tests' own time summed | ${seconds(sqlite.testSeconds)} | ${seconds(pg.testSeconds)} | ${ratio(pg.testSeconds, sqlite.testSeconds)} |`,
        ]
      : [];
  const write = (name: string, pick: (figures: WriteLatency['sqlite']) => number) =>
    `| API write (\`POST /incidents\`), ${name}, ${writeLatency.sqlite.writes} each | ${pick(writeLatency.sqlite).toFixed(1)} ms | ${pick(writeLatency.postgres).toFixed(1)} ms | ${ratio(pick(writeLatency.postgres), pick(writeLatency.sqlite))} |`;
  const resumed =
    resume.resumedAfterSeconds === null
      ? `no check of it was recorded within ${resume.intervalSeconds + 30} s of the kill (**missed**)`
      : `replica ${resume.resumedBy ?? '?'} recorded its next check **${seconds(resume.resumedAfterSeconds)}** after the SIGKILL (the claim the killed replica had set fell due ${seconds(resume.dueAfterKillSeconds)} after it), ${seconds(resume.gapSeconds)} after the last check before the kill (interval ${resume.intervalSeconds} s)`;
  const mailed =
    fanOut.seconds === null
      ? `only ${count(fanOut.mailed)} mailed within ${fanOut.limitSeconds} s (**missed**)`
      : `every subscriber mailed **${seconds(fanOut.seconds)}** after the incident was created`;
  return [
    START,
    `Measured ${result.at} on ${result.machine}; load by ${result.generator}; load average (1 min) ${result.loadAverage.start.toFixed(1)} at the start, ${result.loadAverage.end.toFixed(1)} at the end; the section took ${result.durationSeconds} s. Sizes: ${sizes.connections} connections, ${sizes.runs} interleaved run${sizes.runs === 1 ? '' : 's'} of ${sizes.runSeconds} s (medians), ${count(sizes.subscribers)} subscribers, ${sizes.writes} writes per dialect, ${sizes.conformanceFiles} conformance files. nginx (1 worker) balances three whole \`npm start\` replicas (each with its embedded API) on one PostgreSQL; everything shares the same cores, so three replicas cannot be three times one.`,
    '',
    '| Through nginx to | req/s | p99 ms | failed requests |',
    '|---|---|---|---|',
    row('one replica', result.oneReplica),
    row('three replicas', result.threeReplicas),
    '',
    `One of the three replicas (replica ${resume.killedReplica}, counted from 0) killed with SIGKILL 2 s into a 6 s run: **${killed.errors + killed.non2xx} failed requests** of ${count(killed.requests)} at the balancer (${Math.round(killed.requestsPerSecond)} req/s over the run).`,
    '',
    `Checks after the kill: a ${resume.intervalSeconds} s HTTP monitor (a loopback target) whose check the killed replica held; ${resumed}.`,
    '',
    `Fan-out: ${count(fanOut.subscribers)} confirmed subscribers, one incident, three replicas sending from one outbox, unpaced (\`SUBSCRIPTION_MAILS_PER_SECOND=0\`): ${mailed}; ${count(fanOut.mailed)} distinct recipients, **${fanOut.twice} mailed twice** (counted per RCPT TO at a loopback SMTP server); mails sent per sender process: ${fanOut.sentPerProcess.map(count).join(', ')}.`,
    '',
    '| SQLite against PostgreSQL | SQLite | PostgreSQL | PostgreSQL / SQLite |',
    '|---|---|---|---|',
    ...suiteRows,
    write('p50', (figures) => figures.p50Ms),
    write('p99', (figures) => figures.p99Ms),
    write('max', (figures) => figures.maxMs),
    END,
  ].join('\n');
}

/** `markdown` with its replicas block replaced by `section`, or the block appended under a heading. */
export function withReplicasSection(markdown: string, section: string): string {
  const start = markdown.indexOf(START);
  const end = markdown.indexOf(END);
  if (start !== -1 && end > start) return `${markdown.slice(0, start)}${section}${markdown.slice(end + END.length)}`;
  return `${markdown.trimEnd()}\n\n## Replicas\n\n${section}\n`;
}
