/**
 * `node_modules/.bin/node bench/api-use.ts [--short] [--before DIR]` (after `npx astro build`):
 * API requests a minute at 50 monitors (bench/lib/api-use.ts). `--short` measures each
 * situation for 60 s instead of 300 s; `--before DIR` first measures the site of another
 * checkout (built there, e.g. `git archive main`), for the "before" column. Writes
 * bench/results/api-use.json and the API-use section of docs/benchmarks.md.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { measureApiUse, type ApiUseResult } from './lib/api-use.ts';
import { apiUseSection, renderApiUseReport } from './lib/api-use-report.ts';
import { root } from './lib/processes.ts';

const { values } = parseArgs({ options: { short: { type: 'boolean', default: false }, before: { type: 'string' } } });
const timing = values.short ? { measureSeconds: 60, warmSeconds: 20 } : { measureSeconds: 300, warmSeconds: 30 };

const before: ApiUseResult | null = values.before ? await measureApiUse({ ...timing, siteRoot: path.resolve(values.before) }) : null;
const after = await measureApiUse(timing);
const machine = `${cpus().length} cores, ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}`;
const section = apiUseSection(after, before, new Date().toISOString(), machine);
await mkdir(path.join(root, 'bench/results'), { recursive: true });
await writeFile(path.join(root, 'bench/results/api-use.json'), JSON.stringify({ before, after, timing }, null, 2));
const docs = path.join(root, 'docs/benchmarks.md');
await writeFile(docs, renderApiUseReport(section, await readFile(docs, 'utf8').catch(() => '# Benchmarks\n')));
console.log(section);
