/**
 * Runs the static exporter (`node src/export/main.ts`, what `npm run export` runs after its build)
 * as a child process against a given API, once or with --watch, and reads its export folder.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';

const root = path.resolve(import.meta.dirname, '../../..');
const nodeBinary = path.join(root, 'node_modules/.bin/node');

export interface ExportRun {
  code: number | null;
  stdout: string[];
  stderr: string[];
}

export interface ApiAccess {
  apiUrl: string;
  apiKey: string;
}

function exporterEnv(api: ApiAccess | null, env: Record<string, string>): NodeJS.ProcessEnv {
  return {
    ...process.env,
    STATUS_API_URL: api?.apiUrl ?? '',
    STATUS_API_KEY: api?.apiKey ?? '',
    SITE_PUBLIC_URL: '',
    CACHE_DIR: ':memory:',
    DATABASE_PATH: ':memory:',
    API_PORT: '0',
    TZ: 'UTC',
    // Two languages, one right to left, keep the export specs' crawl and per-page axe within
    // their time; test/e2e/i18n.spec.ts exports every shipped language.
    SITE_LOCALES: 'en,ar',
    ...env,
  };
}

function spawnExporter(args: string[], api: ApiAccess | null, env: Record<string, string>): { child: ChildProcess; stdout: string[]; stderr: string[] } {
  const child = spawn(nodeBinary, ['src/export/main.ts', ...args], { cwd: root, env: exporterEnv(api, env), stdio: ['ignore', 'pipe', 'pipe'] });
  const stdout: string[] = [];
  const stderr: string[] = [];
  createInterface({ input: child.stdout! }).on('line', (line) => stdout.push(line));
  createInterface({ input: child.stderr! }).on('line', (line) => stderr.push(line));
  return { child, stdout, stderr };
}

export async function runExport(args: string[], api: ApiAccess | null, env: Record<string, string> = {}): Promise<ExportRun> {
  const { child, stdout, stderr } = spawnExporter(args, api, env);
  const [code] = (await once(child, 'close')) as [number | null];
  return { code, stdout, stderr };
}

export interface ExportChild {
  child: ChildProcess;
  stdout: string[];
  stderr: string[];
  /** Resolves with the exit code (null when killed by a signal). */
  closed: Promise<number | null>;
}

/** A one-shot export as a child process the test may kill. */
export function startExport(args: string[], api: ApiAccess | null, env: Record<string, string> = {}): ExportChild {
  const { child, stdout, stderr } = spawnExporter(args, api, env);
  const closed = (once(child, 'close') as Promise<[number | null]>).then(([code]) => code);
  return { child, stdout, stderr, closed };
}

export interface ExportWatch {
  stdout: string[];
  stderr: string[];
  /** Waits for the `count`th stdout line matching `pattern` (1: the first). */
  waitForLine(pattern: RegExp, count?: number, timeoutMs?: number): Promise<string>;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

export function startExportWatch(args: string[], api: ApiAccess, env: Record<string, string> = {}): ExportWatch {
  const { child, stdout, stderr } = spawnExporter([...args, '--watch'], api, env);
  const closed = once(child, 'close') as Promise<[number | null]>;
  return {
    stdout,
    stderr,
    async waitForLine(pattern, count = 1, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const matching = stdout.filter((line) => pattern.test(line));
        if (matching.length >= count) return matching[count - 1]!;
        if (child.exitCode !== null) throw new Error(`the exporter exited (${child.exitCode}):\n${[...stdout, ...stderr].join('\n')}`);
        if (Date.now() > deadline) throw new Error(`no line ${pattern} (#${count}) within ${timeoutMs} ms:\n${[...stdout, ...stderr].join('\n')}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      const [code] = await closed;
      return code;
    },
  };
}

/** What the last export wrote: folder-relative path to content hash. */
export async function exportManifest(outDir: string): Promise<Map<string, string>> {
  const parsed = JSON.parse(await readFile(path.join(outDir, '.porchlight-export.json'), 'utf8')) as { files: Record<string, string> };
  return new Map(Object.entries(parsed.files));
}

/** Numbers of the summary line: written, unchanged, removed, API requests. */
export function summaryCounts(line: string): { written: number; unchanged: number; removed: number; apiRequests: number } {
  const match = /\((\d+) written, (\d+) unchanged, (\d+) removed\), (\d+) API requests?/.exec(line);
  if (!match) throw new Error(`not a summary line: ${line}`);
  return { written: Number(match[1]), unchanged: Number(match[2]), removed: Number(match[3]), apiRequests: Number(match[4]) };
}

/** The files whose hash differs between two manifests, and those only in the older one. */
export function manifestChanges(before: Map<string, string>, after: Map<string, string>): { changed: string[]; removed: string[] } {
  return {
    changed: [...after].filter(([file, hash]) => before.get(file) !== hash).map(([file]) => file).sort(),
    removed: [...before.keys()].filter((file) => !after.has(file)).sort(),
  };
}
