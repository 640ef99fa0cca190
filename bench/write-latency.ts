/**
 * `node_modules/.bin/node bench/write-latency.ts`: an API write's latency on SQLite against
 * PostgreSQL, side by side in one run. Two embedded-API processes (`npm run api`, the demo
 * organization seeded, the scheduler off so that only the writes load the store): one on a SQLite
 * file, one on a throwaway PostgreSQL cluster on loopback (test/support/postgres.ts). The same
 * write, `POST /incidents` (an incident on the demo monitor: one transaction with its first
 * update, its notifications queued in the outbox), is sent to each in turn, one at a time, the
 * order alternating, so both see the same machine load. Prints p50, p99 and max per dialect and
 * writes bench/results/write-latency.json. Bounded: WRITES per dialect, about a minute.
 * `measureWriteLatency` is the same run as a function: the replicas section of `npm run bench`
 * (bench/replicas.ts) reports it.
 */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { startPostgresCluster } from '../test/support/postgres.ts';
import { apiWrite, demoPage } from '../test/replicas/support.ts';
import { root, startApi } from './lib/processes.ts';

const WARM_UP = 20;
export const WRITES = 400;

interface Api {
  url: string;
  key: string;
}

export interface WriteFigures {
  writes: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

/** The `q` quantile (nearest rank) of sorted values. */
function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

function figures(durations: number[]): WriteFigures {
  const sorted = [...durations].sort((a, b) => a - b);
  const round = (ms: number) => Math.round(ms * 10) / 10;
  return { writes: sorted.length, p50Ms: round(quantile(sorted, 0.5)), p99Ms: round(quantile(sorted, 0.99)), maxMs: round(sorted.at(-1)!) };
}

/** One write; its duration in ms. A write that is not 201 stops the run: a number from failures would mislead. */
async function timedWrite(api: Api, monitorId: string, n: number): Promise<number> {
  const started = performance.now();
  const answer = await apiWrite(api, 'POST', '/incidents', { monitorIds: [monitorId], title: `Benchmark incident ${n}`, message: 'Investigating.', severity: 'minor' });
  const ms = performance.now() - started;
  if (answer.status !== 201) throw new Error(`POST /incidents answered ${answer.status}: ${answer.body.slice(0, 200)}`);
  return ms;
}

const apiBase = (url: string) => (url.endsWith('/api/v1') ? url : `${url.replace(/\/$/, '')}/api/v1`);

export interface WriteLatency {
  at: string;
  machine: string;
  write: string;
  sqlite: WriteFigures;
  postgres: WriteFigures;
}

/** The run: `writes` timed writes per dialect after the warm-up, on their own processes and cluster. */
export async function measureWriteLatency(writes: number = WRITES): Promise<WriteLatency> {
  const dir = await mkdtemp(path.join(tmpdir(), 'pl-write-bench-'));
  const cluster = await startPostgresCluster();
  const stops: (() => Promise<void>)[] = [];
  try {
    const databaseUrl = await cluster.createDatabase('porchlight_bench');
    const onSqlite = await startApi(path.join(dir, 'api.db'));
    stops.push(onSqlite.stop);
    const onPostgres = await startApi(path.join(dir, 'unused.db'), { DATABASE_URL: databaseUrl });
    stops.push(onPostgres.stop);
    const apis: Record<'sqlite' | 'postgres', Api> = {
      sqlite: { url: apiBase(onSqlite.url), key: onSqlite.key },
      postgres: { url: apiBase(onPostgres.url), key: onPostgres.key },
    };
    const monitors = { sqlite: (await demoPage(apis.sqlite)).monitorId, postgres: (await demoPage(apis.postgres)).monitorId };
    const durations: Record<'sqlite' | 'postgres', number[]> = { sqlite: [], postgres: [] };
    for (let n = 0; n < WARM_UP + writes; n += 1) {
      const order = n % 2 === 0 ? (['sqlite', 'postgres'] as const) : (['postgres', 'sqlite'] as const);
      for (const dialect of order) {
        const ms = await timedWrite(apis[dialect], monitors[dialect], n);
        if (n >= WARM_UP) durations[dialect].push(ms);
      }
    }
    return {
      at: new Date().toISOString(),
      machine: `${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'})`,
      write: 'POST /incidents through the embedded API, one at a time, alternating',
      sqlite: figures(durations.sqlite),
      postgres: figures(durations.postgres),
    };
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    cluster.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const result = await measureWriteLatency();
  await mkdir(path.join(root, 'bench/results'), { recursive: true });
  await writeFile(path.join(root, 'bench/results/write-latency.json'), JSON.stringify(result, null, 2));
  console.log(JSON.stringify(result, null, 2));
}
