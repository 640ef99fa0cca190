/**
 * Several Porchlight site replicas behind nginx on one throwaway PostgreSQL, for the fault tests
 * (test/replicas/) and the replicas benchmark (bench/replicas.ts). Everything real and on
 * loopback: a PostgreSQL cluster (test/support/postgres.ts), the embedded API in one process of
 * its own (`node src/service/main.ts`, as `npm run api`), N site replicas from the sources (`node
 * src/server/main.ts`, what `npm start` runs, on the site `astro build` made), each with the same
 * DATABASE_URL, PUSH_TOKEN, SITE_PUBLIC_URL (the balancer's address) and SMTP server, an SMTP sink,
 * and Debian's nginx as the balancer with docs/scaling.md's block (its own prefix, config, pid and
 * logs in a temporary folder).
 * Every start is bounded in time; `close()` stops everything (SIGKILL after a grace) and removes
 * the folders, also when a test failed half-way, and an exiting test process kills what is left.
 *
 * With API_ON_POSTGRES (the default) each replica is a whole `npm start`: its embedded API on the
 * same DATABASE_URL (schema `service`, each on an API_PORT of its own), the demo organization
 * seeded once by the first, and a second nginx with the same block in front of the three APIs
 * (`ReplicaSet.api.url`), as an operator would balance them. Push is on: the API's one channel
 * posts to SITE_PUBLIC_URL (the balancer), and the replicas fan it out over LISTEN/NOTIFY.
 * Set it to false to run the sites on one `npm run api` process instead.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { copyFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { freePort } from '../../bench/lib/free-port.ts';
import { startApiProcess, type ApiProcess } from '../e2e/support/api-process.ts';
import { startSmtpSink, type SmtpSink } from '../e2e/support/smtp-sink.ts';
import { startPostgresCluster, type PostgresCluster } from './postgres.ts';
import { until } from './ready-process.ts';

export { until };

/** The one line to change when the embedded API runs on PostgreSQL (see above). */
export const API_ON_POSTGRES = true;

const root = path.resolve(import.meta.dirname, '../..');
const node = path.join(root, 'node_modules/.bin/node');
const nginxBinary = process.env.NGINX_PATH ?? (existsSync('/usr/sbin/nginx') ? '/usr/sbin/nginx' : 'nginx');
const START_TIMEOUT_MS = 60_000;
const STOP_GRACE_MS = 15_000;

/** What the replicas need built: the site's server bundle (`astro build`; `npm test` builds first). */
export function siteBuilt(): boolean {
  return existsSync(path.join(root, 'dist/server/entry.mjs'));
}

/** Whether nginx and PostgreSQL are here (CI installs both: .ci/run). */
export function replicaToolsAvailable(): boolean {
  const hasNginx = existsSync(nginxBinary) || spawnable('nginx');
  return hasNginx && (existsSync('/usr/lib/postgresql') || Boolean(process.env.PG_BIN));
}

/**
 * Whether the replica fault tests run here: nginx, PostgreSQL and the built site present. Under
 * CI=true they always run (and fail on what is missing: .ci/run installs nginx and PostgreSQL,
 * `npm test` builds the site first); elsewhere they are skipped with a warning.
 */
export function replicaTestsRun(): boolean {
  if (process.env.CI === 'true') return true;
  const missing = [replicaToolsAvailable() ? null : 'nginx or PostgreSQL 15+', siteBuilt() ? null : 'the built site (npx astro build)'].filter(Boolean);
  if (missing.length > 0) console.warn(`replica fault tests skipped: ${missing.join(' and ')} missing`);
  return missing.length === 0;
}

function spawnable(command: string): boolean {
  return (process.env.PATH ?? '').split(':').some((dir) => existsSync(path.join(dir, command)));
}

const living = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of living) child.kill('SIGKILL');
});

async function stopChild(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
  await exited;
  clearTimeout(timer);
}

export interface SiteReplica {
  index: number;
  port: number;
  /** Its own address (the balancer's is ReplicaSet.url). */
  url: string;
  /** Its embedded API's port (API_ON_POSTGRES), else null. */
  apiPort: number | null;
  child: ChildProcess;
  /** Everything it logged (JSON lines). */
  lines: string[];
  /** SIGKILL: the machine lost, nothing flushed. */
  kill(): Promise<void>;
  /** SIGTERM: a clean shutdown (bounded). */
  stop(): Promise<void>;
}

export interface ReplicaSetOptions {
  replicas: number;
  /** The DATABASE_URL the replicas get, from the cluster and its database's URL (default: that URL). */
  databaseUrl?: (cluster: PostgresCluster, url: string) => string | Promise<string>;
  /** CACHE_FRESH_SECONDS: how often each replica reloads the data (default 2: events are seen within seconds). */
  freshSeconds?: number;
  /** More environment for every replica. */
  env?: Record<string, string>;
}

export interface ReplicaSet {
  /** The balancer: what visitors reach. */
  url: string;
  replicas: SiteReplica[];
  postgres: PostgresCluster;
  /** The database's plain URL (one host), for the test's own connections. */
  databaseUrl: string;
  /** The API: one process, or (API_ON_POSTGRES) nginx in front of every replica's embedded API; the demo organization's key. */
  api: { url: string; key: string };
  smtp: SmtpSink;
  /** Starts one more replica in a slot (after a kill or stop), on its old port. */
  restart(index: number): Promise<SiteReplica>;
  /** Another nginx over some of the replicas only (one against all, in the benchmark); stopped by close(). */
  balancerOver(indexes: readonly number[]): Promise<{ url: string; stop(): Promise<void> }>;
  close(): Promise<void>;
}

/**
 * The nginx block docs/scaling.md publishes ("nginx in front"), its example servers replaced by
 * the replicas' loopback ports, its port by `listenPort` and its server_name dropped: what the
 * docs say is what the fault tests run.
 */
export function balancerConfig(listenPort: number, replicaPorts: readonly number[]): string {
  const scaling = readFileSync(path.join(root, 'docs/scaling.md'), 'utf8');
  const published = /## nginx in front[\s\S]*?```nginx\n([\s\S]*?)```/.exec(scaling)?.[1];
  if (!published) throw new Error('docs/scaling.md has no nginx block under "nginx in front"');
  const example = /^(\s*)server 127\.0\.0\.1:\d+ (.*)$/gm;
  const first = example.exec(published);
  if (!first) throw new Error('the nginx block of docs/scaling.md has no example server line');
  const servers = replicaPorts.map((port) => `${first[1]}server 127.0.0.1:${port} ${first[2]}`).join('\n');
  let placed = false;
  const config = published.replace(example, () => (placed ? '' : ((placed = true), servers))).replace(/^\s*server_name .*\n/m, '');
  if (!config.includes('listen 80;')) throw new Error('the nginx block of docs/scaling.md does not listen on 80');
  return config.replace('listen 80;', `listen 127.0.0.1:${listenPort};`);
}

async function startBalancer(dir: string, port: number, replicaPorts: readonly number[]): Promise<{ stop(): Promise<void> }> {
  await copyFile('/etc/nginx/mime.types', path.join(dir, 'mime.types')).catch(() => undefined);
  const config = `worker_processes 1; daemon off; pid ${dir}/nginx.pid; error_log ${dir}/error.log;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${dir}; proxy_temp_path ${dir}; fastcgi_temp_path ${dir}; uwsgi_temp_path ${dir}; scgi_temp_path ${dir};
  ${balancerConfig(port, replicaPorts)}
}
`;
  await writeFile(path.join(dir, 'nginx.conf'), config);
  const child = spawn(nginxBinary, ['-p', dir, '-e', path.join(dir, 'error.log'), '-c', path.join(dir, 'nginx.conf')], { stdio: ['ignore', 'ignore', 'pipe'] });
  living.add(child);
  const errors: string[] = [];
  child.stderr?.on('data', (chunk: Buffer) => errors.push(chunk.toString()));
  child.once('error', (error) => errors.push(error.message));
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline && child.exitCode === null) {
    try {
      await fetch(`http://127.0.0.1:${port}/healthz`);
      return { stop: async () => { await stopChild(child, 'SIGQUIT'); living.delete(child); } };
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  child.kill('SIGKILL');
  throw new Error(`nginx did not start: ${errors.join('').trim()}`);
}

function startReplica(index: number, port: number, apiPort: number | null, env: Record<string, string>, dir: string): Promise<SiteReplica> {
  const child = spawn(node, ['src/server/main.ts'], {
    cwd: root,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, TZ: 'UTC', PORT: String(port), HOST: '127.0.0.1', CACHE_DIR: path.join(dir, `cache-${index}`), DATABASE_PATH: path.join(dir, `api-${index}.db`), ...(apiPort === null ? {} : { API_PORT: String(apiPort) }), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  living.add(child);
  const lines: string[] = [];
  const replica: SiteReplica = {
    index,
    port,
    url: `http://127.0.0.1:${port}`,
    apiPort,
    child,
    lines,
    kill: async () => {
      await stopChild(child, 'SIGKILL');
      living.delete(child);
    },
    stop: async () => {
      await stopChild(child, 'SIGTERM');
      living.delete(child);
    },
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`replica ${index} did not start in ${START_TIMEOUT_MS / 1000} s:\n${lines.slice(-20).join('\n')}`));
    }, START_TIMEOUT_MS);
    for (const stream of [child.stdout!, child.stderr!]) {
      createInterface({ input: stream }).on('line', (line) => {
        lines.push(line);
        if (line.includes('"siteUrl"')) {
          clearTimeout(timer);
          resolve(replica);
        }
      });
    }
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`replica ${index} exited (${code ?? signal}) before it was ready:\n${lines.slice(-20).join('\n')}`));
    });
  });
}

/** Starts the whole set (about 10–20 s on a loaded 2-core machine); on any failure stops what started. */
export async function startReplicaSet(options: ReplicaSetOptions): Promise<ReplicaSet> {
  if (!siteBuilt()) throw new Error('the site is not built (dist/server/entry.mjs): run `npx astro build` first (`npm test` does)');
  const dir = mkdtempSync(path.join(tmpdir(), 'pl-replicas-'));
  const cleanups: (() => Promise<void> | void)[] = [() => rmSync(dir, { recursive: true, force: true })];
  const close = async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await Promise.resolve(cleanup()).catch(() => undefined);
  };
  try {
    const cluster = await startPostgresCluster();
    cleanups.push(() => cluster.stop());
    const databaseUrl = await cluster.createDatabase('porchlight');
    const smtp = await startSmtpSink();
    cleanups.push(() => smtp.stop());
    let api: ApiProcess | null = null;
    if (!API_ON_POSTGRES) {
      // Rate limits of the API are not under test: three replicas reload every few seconds.
      api = await startApiProcess(path.join(dir, 'api.db'), { RATE_LIMIT_FREE: '1000000', RATE_LIMIT_PRO: '1000000' });
      cleanups.push(() => api!.stop());
    }
    const balancerPort = await freePort();
    const ports: number[] = [];
    for (let index = 0; index < options.replicas; index += 1) ports.push(await freePort());
    const apiPorts: (number | null)[] = [];
    for (let index = 0; index < options.replicas; index += 1) apiPorts.push(api ? null : await freePort());
    const publicUrl = `http://127.0.0.1:${balancerPort}`;
    const env: Record<string, string> = {
      DATABASE_URL: options.databaseUrl ? await options.databaseUrl(cluster, databaseUrl) : databaseUrl,
      PUSH_TOKEN: 'replicas-share-this-push-token-0123456789',
      SITE_PUBLIC_URL: publicUrl,
      SUBSCRIPTIONS: 'true',
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: String(smtp.port),
      SMTP_FROM: 'Status <status@example.com>',
      // Push on only with the embedded APIs: their one channel posts to the balancer and the
      // replicas fan it out (an external `npm run api` would need ALLOW_PRIVATE_TARGETS for that).
      PUSH_UPDATES: api ? 'false' : 'true',
      CACHE_FRESH_SECONDS: String(options.freshSeconds ?? 2),
      HISTORY_BACKFILL_PAGES: '0',
      LOG_LEVEL: 'info',
      // Rate limits of the API are not under test: three replicas reload every few seconds.
      ...(api ? { STATUS_API_URL: api.url, STATUS_API_KEY: api.key } : { SEED_DEMO: 'true', RATE_LIMIT_FREE: '1000000', RATE_LIMIT_PRO: '1000000' }),
      ...options.env,
    };
    const replicas: SiteReplica[] = [];
    const stopReplicas = async () => {
      await Promise.all(replicas.map((replica) => replica.stop()));
      // REPLICAS_DEBUG=1: what each replica logged, to see why a fault test failed.
      if (process.env.REPLICAS_DEBUG) for (const replica of replicas) console.error(`--- replica ${replica.index}\n${replica.lines.join('\n')}`);
    };
    cleanups.push(stopReplicas);
    // One first: it migrates the store; the others then find it done (they would wait on the lock anyway).
    replicas.push(await startReplica(0, ports[0]!, apiPorts[0]!, env, dir));
    const rest = await Promise.allSettled(ports.slice(1).map((port, offset) => startReplica(offset + 1, port, apiPorts[offset + 1]!, env, dir)));
    for (const started of rest) if (started.status === 'fulfilled') replicas.push(started.value);
    const failed = rest.find((started) => started.status === 'rejected');
    if (failed) throw failed.reason;
    replicas.sort((a, b) => a.index - b.index);
    const balancer = await startBalancer(dir, balancerPort, ports);
    // Before the replicas: nginx must not outlive them for long, but must stop before the folder goes.
    cleanups.splice(1, 0, () => balancer.stop());
    let apiInfo = api ? { url: api.url, key: api.key } : { url: '', key: '' };
    if (!api) {
      const apiBalancerPort = await freePort();
      const apiBalancer = await startBalancer(mkdtempSync(path.join(dir, 'nginx-api-')), apiBalancerPort, apiPorts as number[]);
      cleanups.splice(1, 0, () => apiBalancer.stop());
      apiInfo = { url: `http://127.0.0.1:${apiBalancerPort}/api/v1`, key: await demoApiKey(replicas[0]!) };
    }
    return {
      url: publicUrl,
      replicas,
      postgres: cluster,
      databaseUrl,
      api: apiInfo,
      smtp,
      async balancerOver(indexes) {
        const port = await freePort();
        const folder = mkdtempSync(path.join(dir, 'nginx-'));
        const extra = await startBalancer(folder, port, indexes.map((index) => ports[index]!));
        cleanups.splice(1, 0, () => extra.stop());
        return { url: `http://127.0.0.1:${port}`, stop: () => extra.stop() };
      },
      async restart(index) {
        const replica = await startReplica(index, ports[index]!, apiPorts[index]!, env, dir);
        replicas[index] = replica;
        return replica;
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** The demo organization's API key, which the replica that seeded it logged (`demoApiKey`). */
async function demoApiKey(replica: SiteReplica): Promise<string> {
  const found = () => replica.lines.map((line) => /"demoApiKey":"([^"]+)"/.exec(line)?.[1]).find(Boolean);
  // Logged just after the line that says it listens.
  await until(() => found() !== undefined || replica.child.exitCode !== null, 'the demo API key in the log', 10_000).catch(() => undefined);
  const key = found();
  if (key) return key;
  throw new Error(`replica ${replica.index} logged no demo API key:\n${replica.lines.slice(-20).join('\n')}`);
}

/** Polls `condition` every 100 ms until it holds, or fails naming `what` after `timeoutMs`. */

export interface LoadTally {
  ok: number;
  failed: number;
  /** The first few failures: status or error, and the path. */
  failures: string[];
}

/**
 * A steady load: `concurrency` loops each GETting `paths` in turn through `url` until stopped
 * (each request bounded by 15 s). A failure is anything but a 2xx or 304 answer.
 */
export function steadyLoad(url: string, paths: readonly string[], concurrency = 4): { tally: LoadTally; stop(): Promise<LoadTally> } {
  const tally: LoadTally = { ok: 0, failed: 0, failures: [] };
  let running = true;
  const loop = async (offset: number) => {
    for (let turn = offset; running; turn += 1) {
      const where = paths[turn % paths.length]!;
      try {
        const response = await fetch(`${url}${where}`, { signal: AbortSignal.timeout(15_000) });
        await response.arrayBuffer();
        if (response.ok || response.status === 304) tally.ok += 1;
        else {
          tally.failed += 1;
          if (tally.failures.length < 10) tally.failures.push(`${response.status} ${where}`);
        }
      } catch (error) {
        tally.failed += 1;
        if (tally.failures.length < 10) tally.failures.push(`${error instanceof Error ? error.message : String(error)} ${where}`);
      }
    }
  };
  const loops = Array.from({ length: concurrency }, (_, index) => loop(index));
  return {
    tally,
    async stop() {
      running = false;
      await Promise.all(loops);
      return tally;
    },
  };
}
