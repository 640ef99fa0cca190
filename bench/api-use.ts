/**
 * `node_modules/.bin/node bench/api-use.ts [--short] [--before DIR | --before-json FILE]` (after
 * `npx astro build`): API requests a minute at 50 monitors (bench/lib/api-use.ts). `--short`
 * measures each situation for 60 s instead of 300 s; `--before DIR` first measures the site of
 * another checkout (built there, e.g. from `git archive main`), for the "before" column;
 * `--before-json` takes that column from an earlier run's bench/results/api-use.json instead.
 * Writes bench/results/api-use.json and the API-use section of docs/benchmarks.md.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { measureApiUse, type ApiUseResult } from './lib/api-use.ts';
import { apiUseSection, renderApiUseReport } from './lib/api-use-report.ts';
import { root } from './lib/processes.ts';

const { values } = parseArgs({ options: { short: { type: 'boolean', default: false }, before: { type: 'string' }, 'before-json': { type: 'string' } } });
const timing = values.short ? { measureSeconds: 60, warmSeconds: 20 } : { measureSeconds: 300, warmSeconds: 30 };

async function earlierBefore(file: string): Promise<ApiUseResult | null> {
  const saved = JSON.parse(await readFile(file, 'utf8')) as { before?: ApiUseResult | null };
  return saved.before ?? null;
}

const before: ApiUseResult | null = values.before
  ? await measureApiUse({ ...timing, siteRoot: path.resolve(values.before) })
  : values['before-json'] ? await earlierBefore(values['before-json']) : null;
const after = await measureApiUse(timing);
const machine = `${cpus().length} cores, ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}`;
const section = apiUseSection(after, before, new Date().toISOString(), machine);
await mkdir(path.join(root, 'bench/results'), { recursive: true });
await writeFile(path.join(root, 'bench/results/api-use.json'), JSON.stringify({ before, after, timing }, null, 2));
const docs = path.join(root, 'docs/benchmarks.md');
await writeFile(docs, renderApiUseReport(section, await readFile(docs, 'utf8').catch(() => '# Benchmarks\n')));
console.log(section);
