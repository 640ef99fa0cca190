/** The processes a benchmark run starts: the API alone, Porchlight, and nginx. All on loopback. */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { once } from 'node:events';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';

export const root = path.resolve(import.meta.dirname, '../..');
const node = path.join(root, 'node_modules/.bin/node');

export interface Running {
  child: ChildProcess;
  lines: string[];
  stop(): Promise<void>;
}

function run(command: string, args: string[], env: Record<string, string>, ready: RegExp, cwd = root): Promise<Running & { match: RegExpExecArray }> {
  const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    await once(child, 'exit');
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${command} did not start:\n${lines.join('\n')}`)), 30_000);
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream! }).on('line', (line) => {
        lines.push(line);
        const match = ready.exec(line);
        if (match) {
          clearTimeout(timer);
          resolve({ child, lines, stop, match });
        }
      });
    }
    child.once('exit', (code) => reject(new Error(`${command} exited with ${code}:\n${lines.join('\n')}`)));
  });
}

export async function startApi(databasePath: string, env: Record<string, string> = {}): Promise<Running & { url: string; key: string }> {
  const api = await run(node, ['src/service/main.ts'], {
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_PATH: databasePath,
    SEED_DEMO: 'true',
    SCHEDULER: 'false',
    // Two sites refresh from it, one every second in the churn run: rate limits are not under test.
    RATE_LIMIT_FREE: '1000000',
    RATE_LIMIT_PRO: '1000000',
    ...env,
  }, /API key \(demo only\): (\S+)/);
  const url = api.lines.map((line) => /listening on (\S+)/.exec(line)?.[1]).find(Boolean);
  if (!url) throw new Error('the API did not say where it listens');
  return { ...api, url, key: api.match[1]! };
}

/** `siteRoot`: the checkout whose launcher runs (built there), e.g. an older one for a "before" figure. */
export async function startPorchlight(apiUrl: string, apiKey: string, freshSeconds: number, env: Record<string, string> = {}, siteRoot: string = root): Promise<Running & { url: string }> {
  const site = await run(
    node,
    // As `npm start` runs it (package.json): the bundle `astro build` writes (no TypeScript
    // stripping in any thread), a smaller young generation, two malloc arenas and fixed malloc
    // thresholds keep RSS down.
    ['--max-semi-space-size=2', 'dist/threads/main.mjs'],
    { PORT: '0', STATUS_API_URL: apiUrl, STATUS_API_KEY: apiKey, CACHE_DIR: ':memory:', CACHE_FRESH_SECONDS: String(freshSeconds), MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072', MALLOC_TRIM_THRESHOLD_: '131072', ...env },
    // The start-up summary is a JSON log line with the site's address.
    /"siteUrl":"([^"]+)"/,
    siteRoot,
  );
  return { ...site, url: site.match[1]! };
}

/**
 * Another checkout of Porchlight (built), started as its own `npm start` runs it: its launcher
 * bundle when it has one (as startPorchlight does), else as it ran before the bundles (`node
 * --max-semi-space-size=4 src/server/main.ts`). The "before" of a comparison.
 */
export async function startOtherPorchlight(checkout: string, apiUrl: string, apiKey: string, freshSeconds: number, env: Record<string, string> = {}): Promise<Running & { url: string }> {
  if (existsSync(path.join(checkout, 'dist/threads/main.mjs'))) return startPorchlight(apiUrl, apiKey, freshSeconds, env, checkout);
  const site = await run(
    node,
    ['--max-semi-space-size=4', 'src/server/main.ts'],
    { PORT: '0', STATUS_API_URL: apiUrl, STATUS_API_KEY: apiKey, CACHE_DIR: ':memory:', CACHE_FRESH_SECONDS: String(freshSeconds), ...env },
    /"siteUrl":"([^"]+)"/,
    checkout,
  );
  return { ...site, url: site.match[1]! };
}

/** The raw `node:http` baseline (bench/raw-node-server.ts) sending captured bytes and headers. */
export async function startRawNode(capturePath: string): Promise<Running & { url: string }> {
  const raw = await run(node, ['bench/raw-node-server.ts', capturePath], {}, /listening on (\S+)/);
  return { ...raw, url: raw.match[1]! };
}

/**
 * nginx with one worker (Node serves on one thread too) serving the same page from files: the
 * same bytes, plain and gzipped (gzip_static), as Porchlight sends them.
 */
export async function startNginx(html: Buffer, gzipped: Buffer, port: number): Promise<Running & { url: string }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'porchlight-bench-nginx-'));
  await writeFile(path.join(dir, 'index.html'), html);
  await writeFile(path.join(dir, 'index.html.gz'), gzipped);
  const config = `worker_processes 1; daemon off; pid ${dir}/nginx.pid; error_log ${dir}/error.log;
events { worker_connections 1024; }
http { access_log off; sendfile on; tcp_nopush on; keepalive_requests 100000; gzip off;
  client_body_temp_path ${dir}; proxy_temp_path ${dir}; fastcgi_temp_path ${dir}; uwsgi_temp_path ${dir}; scgi_temp_path ${dir};
  server { listen 127.0.0.1:${port}; root ${dir}; location / { gzip_static on; default_type text/html; rewrite ^ /index.html break; } } }`;
  await writeFile(path.join(dir, 'nginx.conf'), config);
  const child = spawn('nginx', ['-c', path.join(dir, 'nginx.conf')], { stdio: ['ignore', 'pipe', 'pipe'] });
  const url = `http://127.0.0.1:${port}/`;
  for (let attempt = 0; attempt < 50; attempt += 1) {
    try {
      if ((await fetch(url)).ok) break;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return {
    child,
    lines: [],
    url,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGQUIT');
      await once(child, 'exit');
    },
  };
}

/** Resident memory of a process, from /proc, in MiB. */
export async function residentMiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kib = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0);
  return Math.round((kib / 1024) * 10) / 10;
}
