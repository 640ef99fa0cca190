/**
 * Start-up with DATABASE_URL: the subscriptions thread (as the launcher starts it, its settings
 * as data) opens the subscribers' store on PostgreSQL; a server that cannot be used, or a schema
 * newer than the code, stops `npm start` with one line and exit 1 before anything is written.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../bench/lib/free-port.ts';
import { startPorchlightThread } from '../../src/server/threads/porchlight-threads.ts';
import type { SubscriptionsWorkerData } from '../../src/server/threads/subscriptions-worker.ts';
import { DEFAULT_LANGUAGE_SETTINGS } from '../../src/site/i18n/settings.ts';
import { DIALECTS, useDialects } from '../support/postgres.ts';
import { SUBSCRIBER_MIGRATIONS } from '../../src/subscribers/migrations.ts';
import { SERVICE_MIGRATIONS } from '../../src/service/store/migrations.ts';
import type { ServiceOptions } from '../../src/service/index.ts';
import { latestVersion } from '../../src/store/migrations.ts';

const NEWEST = latestVersion(SUBSCRIBER_MIGRATIONS);

const dir = mkdtempSync(join(tmpdir(), 'pl-start-pg-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const dialects = useDialects();

/** `npm start`'s entry from the sources, in a folder of its own; resolves once it exits. */
function start(env: NodeJS.ProcessEnv, folder: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(join('node_modules', '.bin', 'node'), ['src/server/main.ts'], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, DATABASE_PATH: join(folder, 'porchlight.db'), SUBSCRIBERS_DB: join(folder, 'subscribers.db'), CACHE_DIR: join(folder, 'cache'), DEMO_MAIL_DIR: join(folder, 'mail'), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

function refusedWith(result: { code: number | null; stdout: string; stderr: string }, folder: string): string {
  expect(result.code).toBe(1);
  const lines = `${result.stdout}${result.stderr}`.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).not.toContain('hunter2');
  // Nothing written: no embedded API store, no subscribers' file, no mail folder, no cache.
  expect(existsSync(folder) ? readdirSync(folder) : []).toEqual([]);
  return (JSON.parse(lines[0]!) as { msg: string }).msg;
}

describe('npm start with DATABASE_URL', () => {
  it('stops with one line and writes nothing when the server cannot be reached', async () => {
    const folder = join(dir, 'unreachable');
    const port = await freePort();
    const result = await start({ PORT: String(await freePort()), API_PORT: String(await freePort()), DATABASE_URL: `postgres://porchlight:hunter2@127.0.0.1:${port}/porchlight` }, folder);
    expect(refusedWith(result, folder)).toBe(`porchlight: cannot reach the PostgreSQL server at 127.0.0.1:${port} (DATABASE_URL): ECONNREFUSED`);
  }, 60_000);

  it('stops with one line on a malformed DATABASE_URL', async () => {
    const folder = join(dir, 'malformed');
    expect(refusedWith(await start({ DATABASE_URL: 'postgres://porchlight:hunter2@db.example:port/x' }, folder), folder)).toBe('porchlight: DATABASE_URL has a port that is not a number from 1 to 65535');
  }, 60_000);
});

describe.runIf(DIALECTS.includes('postgres'))('the subscriptions thread on PostgreSQL', () => {
  const data = (url: string, folder: string): SubscriptionsWorkerData => ({
    databasePath: join(folder, 'subscribers.db'),
    databaseUrl: url,
    smtp: null,
    demoMailDir: join(folder, 'mail'),
    languages: DEFAULT_LANGUAGE_SETTINGS,
    links: { origin: 'http://127.0.0.1', configured: false },
    maxPerSecond: 50,
    monitorDown: false,
  });

  it('starts with its store in the schema subscribers (migrated, one signing key), and no SQLite file', async () => {
    const folder = join(dir, 'thread');
    const url = dialects.postgresUrl();
    const thread = await startPorchlightThread<{ origin: string }>('subscriptions', data(url, folder));
    try {
      expect(thread.ready.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const sql = postgres(url, { max: 1, onnotice: () => undefined });
      try {
        expect(await sql`SELECT version FROM subscribers.schema_migrations ORDER BY version`).toEqual(SUBSCRIBER_MIGRATIONS.migrations.map((migration) => ({ version: migration.version })));
        expect(await sql`SELECT COUNT(*)::int AS n FROM subscribers.meta WHERE key = 'manage-key'`).toEqual([{ n: 1 }]);
      } finally {
        await sql.end({ timeout: 5 });
      }
      expect(existsSync(join(folder, 'subscribers.db'))).toBe(false);
    } finally {
      await thread.close();
    }
  }, 60_000);

  it('npm start refuses a schema newer than the code in the same one line as SQLite, writing nothing', async () => {
    const url = await (async () => {
      const base = dialects.postgresUrl();
      const admin = postgres(base, { max: 1, onnotice: () => undefined });
      try {
        await admin.unsafe('CREATE DATABASE porchlight_newer');
      } finally {
        await admin.end({ timeout: 5 });
      }
      return base.replace(/\/[^/]+$/, '/porchlight_newer');
    })();
    const sql = postgres(url, { max: 1, onnotice: () => undefined });
    try {
      await sql.unsafe("CREATE SCHEMA subscribers; CREATE TABLE subscribers.schema_migrations (version integer PRIMARY KEY, description text NOT NULL, applied_at timestamptz NOT NULL); INSERT INTO subscribers.schema_migrations VALUES (9, 'from the future', now())");
      const folder = join(dir, 'newer');
      const result = await start({ PORT: String(await freePort()), API_PORT: String(await freePort()), DATABASE_URL: url }, folder);
      expect(refusedWith(result, folder)).toBe(`porchlight: the subscribers database is at schema version 9, newer than this Porchlight knows (${NEWEST}): run the newer Porchlight, or restore a backup made with this one`);
      expect(await sql`SELECT version FROM subscribers.schema_migrations`).toEqual([{ version: 9 }]);
    } finally {
      await sql.end({ timeout: 5 });
    }
  }, 60_000);
});

describe.runIf(DIALECTS.includes('postgres'))('the embedded API thread on PostgreSQL', () => {
  it('starts with its store in the schema service (migrated), and no SQLite file', async () => {
    const folder = join(dir, 'api-thread');
    const url = dialects.postgresUrl();
    const options: ServiceOptions = { databasePath: join(folder, 'porchlight.db'), databaseUrl: url, host: '127.0.0.1', port: 0, seedDemo: true, scheduler: false, notifications: { deliver: false } };
    const thread = await startPorchlightThread<{ url: string; demo: { apiKey: string } | null }>('api', options);
    try {
      expect(thread.ready.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
      const monitors = await fetch(`${thread.ready.url}/monitors`, { headers: { authorization: `Bearer ${thread.ready.demo?.apiKey ?? ''}` } });
      expect(monitors.status).toBe(200);
      const sql = postgres(url, { max: 1, onnotice: () => undefined });
      try {
        expect(await sql`SELECT version FROM service.schema_migrations ORDER BY version`).toEqual(SERVICE_MIGRATIONS.migrations.map((migration) => ({ version: migration.version })));
        expect((await sql`SELECT COUNT(*)::int AS n FROM service.organizations`)[0]).toEqual({ n: 1 });
      } finally {
        await sql.end({ timeout: 5 });
      }
      expect(existsSync(join(folder, 'porchlight.db'))).toBe(false);
    } finally {
      await thread.close();
    }
  }, 60_000);
});
