/**
 * The embedded API's HTTP conformance suite timed on each dialect: `vitest run` of its files
 * (docs/storage.md, "Tests on both dialects") once with TEST_DIALECTS=sqlite and once with
 * TEST_DIALECTS=postgres (test/support/postgres.ts), as separate processes one after the other.
 * Two figures per dialect: the wall time of the whole run (vitest's start, each file's setup,
 * on PostgreSQL a throwaway cluster per file) and the sum of the tests' own durations from
 * vitest's report (the store's share: requests against a service on that dialect).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { DialectName } from '../../src/store/database.ts';
import { root } from './processes.ts';

/** The conformance files: every one runs its `describe.each(DIALECTS)` blocks on both dialects. */
export const CONFORMANCE_FILES: readonly string[] = ['monitors', 'incidents', 'maintenance', 'status-pages', 'notifications', 'access', 'cascade', 'pipeline'].map(
  (name) => `test/service/${name}.test.ts`,
);

/** One suite run's upper bound: a run that takes longer has hung. */
const RUN_LIMIT_MS = 300_000;

export interface ConformanceTime {
  dialect: DialectName;
  files: number;
  tests: number;
  /** The whole `vitest run`, start to exit. */
  wallSeconds: number;
  /** The tests' own durations, summed. */
  testSeconds: number;
}

/**
 * Sums vitest's JUnit report (its JSON reporter would take the config's output file, which CI
 * reads: test-results/vitest.json). Test times are in seconds.
 */
export function summarizeJunit(xml: string): { tests: number; failed: number; testSeconds: number } {
  const root = /<testsuites\b[^>]*>/.exec(xml)?.[0] ?? '';
  const attribute = (name: string) => Number(new RegExp(`\\b${name}="(\\d+)"`).exec(root)?.[1] ?? Number.NaN);
  const times = [...xml.matchAll(/<testcase\b[^>]*\btime="([\d.]+)"/g)].map((match) => Number(match[1]));
  return { tests: attribute('tests'), failed: attribute('failures') + attribute('errors'), testSeconds: times.reduce((sum, seconds) => sum + seconds, 0) };
}

async function runOnce(dialect: DialectName, files: readonly string[], dir: string): Promise<ConformanceTime> {
  const outputFile = path.join(dir, `${dialect}.xml`);
  const vitest = path.join(root, 'node_modules/.bin/vitest');
  const started = performance.now();
  const output: string[] = [];
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(vitest, ['run', ...files, '--reporter=junit', `--outputFile.junit=${outputFile}`], {
      cwd: root,
      // node_modules/.bin first, as under npx: vitest's `#!/usr/bin/env node` then finds Node 24.
      env: { ...process.env, PATH: `${path.join(root, 'node_modules/.bin')}:${process.env.PATH ?? ''}`, TEST_DIALECTS: dialect },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), RUN_LIMIT_MS);
    for (const stream of [child.stdout, child.stderr]) stream.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.once('error', reject);
    child.once('exit', (exitCode) => {
      clearTimeout(timer);
      resolve(exitCode);
    });
  });
  const wallSeconds = (performance.now() - started) / 1000;
  const summary = summarizeJunit(await readFile(outputFile, 'utf8').catch(() => ''));
  // A failed, partial or empty suite gives no honest time.
  if (code !== 0 || summary.failed !== 0 || !(summary.tests > 0)) throw new Error(`the conformance suite on ${dialect} failed (exit ${code}): ${output.join('').slice(-1500)}`);
  return { dialect, files: files.length, tests: summary.tests, wallSeconds, testSeconds: summary.testSeconds };
}

/** The suite on SQLite, then on PostgreSQL (`files`: a subset, for a short run). */
export async function timeConformance(files: readonly string[] = CONFORMANCE_FILES): Promise<ConformanceTime[]> {
  const dir = await mkdtemp(path.join(tmpdir(), 'pl-conformance-'));
  try {
    const times: ConformanceTime[] = [];
    for (const dialect of ['sqlite', 'postgres'] as const) times.push(await runOnce(dialect, files, dir));
    return times;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
