/**
 * `node bench/push.ts` (after `npx astro build`): the push latency part of `npm run bench` alone.
 * Updates the push section of docs/benchmarks.md and writes bench/results/push-latency.json.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import path from 'node:path';
import { root } from './lib/processes.ts';
import { measurePushLatency, type PushLatencyResult } from './lib/push-latency.ts';
import { pushSection, renderPushReport } from './lib/report.ts';

export const PUSH_TRIALS = 20;

/** Measures, then writes the JSON and the Markdown section; returns the section. */
export async function runPushLatency(freshSeconds: number): Promise<string> {
  const result: PushLatencyResult = await measurePushLatency({ trials: PUSH_TRIALS, freshSeconds });
  const machine = `${cpus().length} cores, ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}`;
  const section = pushSection(result, new Date().toISOString(), machine);
  await mkdir(path.join(root, 'bench/results'), { recursive: true });
  await writeFile(path.join(root, 'bench/results/push-latency.json'), JSON.stringify(result, null, 2));
  const docs = path.join(root, 'docs/benchmarks.md');
  await writeFile(docs, renderPushReport(section, await readFile(docs, 'utf8').catch(() => '# Benchmarks\n')));
  return section;
}

if (import.meta.main) console.log(await runPushLatency(10));
