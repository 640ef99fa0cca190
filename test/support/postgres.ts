/**
 * A throwaway PostgreSQL cluster for tests: Debian's server binaries (/usr/lib/postgresql/N/bin,
 * N >= 15, or PG_BIN), initdb into a temporary folder, started on a free loopback port with its
 * socket in that folder, stopped and deleted afterwards (also when the process exits early). As
 * root it runs as the `postgres` user, since PostgreSQL refuses root. One cluster per test file
 * (`usePostgres()`), one database per file, one schema per test.
 *
 * Without PostgreSQL the PostgreSQL half of the tests is skipped with a warning, except under
 * CI=true, where that is an error: CI installs the `postgresql` package (.ci/run). TEST_DIALECTS
 * picks one half (see DIALECTS).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { afterAll, beforeAll } from 'vitest';
import { freePort } from '../../bench/lib/free-port.ts';
import type { Database, DialectName } from '../../src/store/database.ts';
import type { StoreLocation } from '../../src/store/location.ts';
import { PostgresDatabase } from '../../src/store/postgres.ts';
import { SqliteDatabase } from '../../src/store/sqlite.ts';

/** The folder of a PostgreSQL 15+ server's binaries, or null. */
export function postgresBinDir(): string | null {
  if (process.env.PG_BIN) return existsSync(join(process.env.PG_BIN, 'initdb')) ? process.env.PG_BIN : null;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root).filter((name) => /^\d+$/.test(name) && Number(name) >= 15 && existsSync(join(root, name, 'bin', 'initdb')));
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  return newest ? join(root, newest, 'bin') : null;
}

function postgresAvailable(): boolean {
  if (postgresBinDir() !== null) return true;
  if (process.env.CI === 'true') throw new Error('PostgreSQL 15+ is not installed (no /usr/lib/postgresql/*/bin/initdb): the PostgreSQL half of the store tests cannot run; .ci/run installs Debian\'s postgresql');
  console.warn('PostgreSQL 15+ not found (/usr/lib/postgresql/*/bin/initdb, or PG_BIN): the PostgreSQL half of the store tests is skipped');
  return false;
}

/**
 * TEST_DIALECTS=sqlite (or postgres): only that half of the parameterized tests, to time a suite
 * on one dialect (bench/lib/conformance-time.ts). Unset: both, PostgreSQL's when it is installed.
 */
function selectedDialects(): readonly DialectName[] {
  const wanted = process.env.TEST_DIALECTS;
  if (wanted === undefined || wanted === '') return postgresAvailable() ? ['sqlite', 'postgres'] : ['sqlite'];
  if (wanted === 'sqlite') return ['sqlite'];
  if (wanted === 'postgres') {
    if (postgresBinDir() === null) throw new Error('TEST_DIALECTS=postgres, but PostgreSQL 15+ is not installed (/usr/lib/postgresql/*/bin/initdb, or PG_BIN)');
    return ['postgres'];
  }
  throw new Error(`TEST_DIALECTS must be sqlite or postgres, not ${JSON.stringify(wanted)}`);
}

/** The dialects a parameterized store test runs on. */
export const DIALECTS: readonly DialectName[] = selectedDialects();

const USER = 'porchlight';
const asRoot = userInfo().uid === 0;

function runAsServerUser(command: string, args: string[]): void {
  const [file, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
  const result = spawnSync(file, argv, { encoding: 'utf8', timeout: 60_000 });
  if (result.status !== 0) throw new Error(`${command} failed (${result.status ?? result.signal}): ${(result.stderr || result.stdout).trim().slice(0, 500)}`);
}

/** The processes whose parent is `pid`, from /proc (Linux). */
function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // "pid (comm) state ppid …": the name may hold spaces, so read after its closing parenthesis.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) children.push(Number(entry));
    } catch {
      // Ended meanwhile.
    }
  }
  return children;
}

export interface PostgresCluster {
  port: number;
  /** The URL of a database of this cluster. */
  url(database: string): string;
  /** Creates a new database and gives its URL. */
  createDatabase(name: string): Promise<string>;
  /** An outage: `pg_ctl stop -m fast` (sessions are ended); the cluster's files stay. */
  stopServer(): void;
  /** Starts the server again after stopServer (or kill), on the same port. */
  startServer(): void;
  /** The server lost at once: SIGKILL to the postmaster (its backends end when they notice). */
  kill(): void;
  /**
   * A hot standby of this cluster (`pg_basebackup -R`, streaming from it) started on another free
   * loopback port; `promote()` makes it a primary. Stopped and deleted with this one.
   */
  startStandby(): Promise<PostgresCluster & { promote(): void }>;
  stop(): void;
}

/** Starts a cluster on a free loopback port (about 3 s). */
export async function startPostgresCluster(): Promise<PostgresCluster> {
  return startCluster(null);
}

function serverUserIds(): { uid: number; gid: number } {
  return {
    uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim()),
    gid: Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim()),
  };
}

/** A cluster made by initdb, or (`primaryPort`) a hot standby copied from the primary on that port. */
async function startCluster(primaryPort: number | null): Promise<PostgresCluster & { promote(): void }> {
  const bin = postgresBinDir();
  if (!bin) throw new Error('PostgreSQL 15+ is not installed');
  const dir = mkdtempSync(join(tmpdir(), 'pl-pg-'));
  chmodSync(dir, 0o755);
  if (asRoot) {
    const { uid, gid } = serverUserIds();
    chownSync(dir, uid, gid);
  }
  const data = join(dir, 'data');
  let port = 0;
  const standbys: PostgresCluster[] = [];
  const pgCtl = (args: string[]) => runAsServerUser(join(bin, 'pg_ctl'), ['-D', data, ...args]);
  const running = () => existsSync(join(data, 'postmaster.pid'));
  const startServer = () =>
    pgCtl(['-l', join(dir, 'log'), '-w', '-t', '60', '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`, 'start']);
  const kill = () => {
    if (!running()) return;
    const pid = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
    // The machine lost: the postmaster and every backend at once (a backend left alone could
    // still commit on its open connection for a moment).
    const children = childrenOf(pid);
    for (const victim of [pid, ...children]) {
      try {
        process.kill(victim, 'SIGKILL');
      } catch {
        // Gone already.
      }
    }
    // The pid file stays behind a SIGKILL.
    rmSync(join(data, 'postmaster.pid'), { force: true });
  };
  const stop = () => {
    for (const standby of standbys.splice(0)) standby.stop();
    if (running()) {
      const args = ['-D', data, '-m', 'immediate', '-w', 'stop'];
      if (asRoot) spawnSync('runuser', ['-u', 'postgres', '--', join(bin, 'pg_ctl'), ...args], { timeout: 30_000 });
      else spawnSync(join(bin, 'pg_ctl'), args, { timeout: 30_000 });
    }
    rmSync(dir, { recursive: true, force: true });
    process.off('exit', stop);
  };
  process.on('exit', stop);
  try {
    if (primaryPort === null) runAsServerUser(join(bin, 'initdb'), ['-D', data, '-A', 'trust', '-U', USER, '--no-locale', '-E', 'UTF8', '--no-sync']);
    else runAsServerUser(join(bin, 'pg_basebackup'), ['-R', '-D', data, '-h', '127.0.0.1', '-p', String(primaryPort), '-U', USER, '-X', 'stream', '-c', 'fast', '--no-sync']);
    // A port picked free may be taken before the server binds it: try a few.
    for (let attempt = 1; ; attempt += 1) {
      port = await freePort();
      try {
        startServer();
        break;
      } catch (error) {
        if (attempt >= 3) throw error;
      }
    }
  } catch (error) {
    stop();
    throw error;
  }
  const url = (database: string) => `postgres://${USER}@127.0.0.1:${port}/${database}`;
  return {
    port,
    url,
    async createDatabase(name) {
      const admin = postgres(url('postgres'), { max: 1, onnotice: () => undefined });
      try {
        await admin.unsafe(`CREATE DATABASE "${name}"`);
      } finally {
        await admin.end({ timeout: 5 });
      }
      return url(name);
    },
    stopServer: () => {
      if (running()) pgCtl(['-m', 'fast', '-w', '-t', '60', 'stop']);
    },
    startServer,
    kill,
    async startStandby() {
      const standby = await startCluster(port);
      standbys.push(standby);
      return standby;
    },
    promote: () => pgCtl(['-w', '-t', '60', 'promote']),
    stop,
  };
}

export interface DialectFixture {
  /** A fresh, empty place for a store on `dialect`: ':memory:' SQLite, or a new schema in this file's PostgreSQL database. */
  location(dialect: DialectName): StoreLocation;
  /** A fresh, empty database on `dialect` (see location). */
  database(dialect: DialectName): Promise<Database>;
  /** This file's PostgreSQL database (for a second process or pool); throws without PostgreSQL. */
  postgresUrl(): string;
}

let schemas = 0;

/**
 * Registers the file's cluster (started in beforeAll when PostgreSQL is among DIALECTS, stopped
 * in afterAll) and hands out fresh stores' places.
 */
export function useDialects(): DialectFixture {
  let cluster: PostgresCluster | null = null;
  let databaseUrl: string | null = null;
  beforeAll(async () => {
    if (!DIALECTS.includes('postgres')) return;
    cluster = await startPostgresCluster();
    databaseUrl = await cluster.createDatabase('porchlight_test');
  }, 60_000);
  afterAll(() => cluster?.stop());
  const postgresUrl = () => {
    if (!databaseUrl) throw new Error('no PostgreSQL cluster in this test file');
    return databaseUrl;
  };
  const location = (dialect: DialectName): StoreLocation =>
    dialect === 'sqlite' ? { dialect: 'sqlite', path: ':memory:' } : { dialect: 'postgres', url: postgresUrl(), schema: `t${++schemas}_${process.pid}` };
  return {
    location,
    async database(dialect) {
      const where = location(dialect);
      return where.dialect === 'sqlite' ? new SqliteDatabase(where.path) : PostgresDatabase.open(where.url, { schema: where.schema ?? 'test' });
    },
    postgresUrl,
  };
}
