import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../bench/lib/free-port.ts';
import { runMigrate } from '../../src/server/migrate.ts';
import { DIALECTS, useDialects } from '../support/postgres.ts';
import { SUBSCRIBER_MIGRATIONS } from '../../src/subscribers/migrations.ts';
import { SERVICE_MIGRATIONS } from '../../src/service/store/migrations.ts';
import { latestVersion } from '../../src/store/migrations.ts';
import { AUTH_MIGRATIONS } from '../../src/auth/migrations.ts';
import { AUDIENCE_MIGRATIONS } from '../../src/audiences/migrations.ts';

const AUDIENCES_NEWEST = latestVersion(AUDIENCE_MIGRATIONS);
import { CONSOLE_MIGRATIONS } from '../../src/console/migrations.ts';

/** The subscribers' newest schema version, and every version up to it as rows. */
const NEWEST = latestVersion(SUBSCRIBER_MIGRATIONS);
const ALL_VERSIONS = SUBSCRIBER_MIGRATIONS.migrations.map((migration) => ({ version: migration.version }));
const AUTH_NEWEST = latestVersion(AUTH_MIGRATIONS);
/** The embedded API's newest schema version. */
const API_NEWEST = latestVersion(SERVICE_MIGRATIONS);
const CONSOLE_NEWEST = latestVersion(CONSOLE_MIGRATIONS);

const dir = mkdtempSync(join(tmpdir(), 'pl-migrate-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const dialects = useDialects();

async function run(env: NodeJS.ProcessEnv): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runMigrate({ SUBSCRIBERS_DB: join(dir, 'subscribers.db'), AUDIENCES_DB: join(dir, 'audiences.db'), DATABASE_PATH: join(dir, 'api.db'), ...env }, (line) => out.push(line), (line) => err.push(line));
  return { code, out, err };
}

/** `npm run migrate` as a process of its own (what an operator or a replica's start script runs). */
function migrateProcess(env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(join('node_modules', '.bin', 'node'), ['src/server/migrate.ts'], { env: { PATH: process.env.PATH, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
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

describe('npm run migrate', () => {
  it('migrates the subscribers\' SQLite file, the sign-in store beside it, the audiences, the console\'s store and the embedded API\'s file, then finds them up to date', async () => {
    expect(await run({})).toEqual({ code: 0, out: [`subscribers: schema version 0 → ${NEWEST} (${join(dir, 'subscribers.db')})`, `auth: schema version 0 → ${AUTH_NEWEST} (${join(dir, 'auth.db')})`, `audiences: schema version 0 → ${AUDIENCES_NEWEST} (${join(dir, 'audiences.db')})`, `console: schema version 0 → ${CONSOLE_NEWEST} (${join(dir, 'console.db')})`, `API: schema version 0 → ${API_NEWEST} (${join(dir, 'api.db')})`], err: [] });
    expect(await run({})).toEqual({ code: 0, out: [`subscribers: schema version ${NEWEST}, up to date (${join(dir, 'subscribers.db')})`, `auth: schema version ${AUTH_NEWEST}, up to date (${join(dir, 'auth.db')})`, `audiences: schema version ${AUDIENCES_NEWEST}, up to date (${join(dir, 'audiences.db')})`, `console: schema version ${CONSOLE_NEWEST}, up to date (${join(dir, 'console.db')})`, `API: schema version ${API_NEWEST}, up to date (${join(dir, 'api.db')})`], err: [] });
  });

  it('refuses a malformed DATABASE_URL in one line that does not repeat it, and writes nothing', async () => {
    const result = await migrateProcess({ DATABASE_URL: 'postgres://u:hunter2@db:port/x', SUBSCRIBERS_DB: join(dir, 'never.db') });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('porchlight migrate: DATABASE_URL has a port that is not a number from 1 to 65535\n');
    expect(result.stdout).toBe('');
  }, 60_000);

  it('names an unreachable server in one line, without the password', async () => {
    const port = await freePort();
    expect(await run({ DATABASE_URL: `postgres://u:hunter2@127.0.0.1:${port}/x` })).toEqual({ code: 1, out: [], err: [`porchlight migrate: cannot reach the PostgreSQL server at 127.0.0.1:${port} (DATABASE_URL): ECONNREFUSED`] });
  });
});

describe.runIf(DIALECTS.includes('postgres'))('npm run migrate on PostgreSQL', () => {
  it('two processes migrating one database at once apply each migration once; a newer schema is refused in one line', async () => {
    const url = dialects.postgresUrl();
    const [first, second] = await Promise.all([migrateProcess({ DATABASE_URL: url }), migrateProcess({ DATABASE_URL: url })]);
    expect([first.code, second.code, first.stderr, second.stderr]).toEqual([0, 0, '', '']);
    // Whether the second started before the first was done depends on the machine: either way it
    // succeeds (applying a migration twice would fail on its CREATE TABLE) and says where it stands.
    for (const run of [first, second]) {
      expect(run.stdout).toMatch(new RegExp(`^subscribers: schema version (0 → ${NEWEST}|${NEWEST}, up to date) \\(PostgreSQL \\(DATABASE_URL\\)\\)\nauth: schema version (0 → ${AUTH_NEWEST}|${AUTH_NEWEST}, up to date) \\(PostgreSQL \\(DATABASE_URL\\)\\)\naudiences: schema version (0 → ${AUDIENCES_NEWEST}|${AUDIENCES_NEWEST}, up to date) \\(PostgreSQL \\(DATABASE_URL\\)\\)\nsite: schema version (0 → 1|1, up to date) \\(PostgreSQL \\(DATABASE_URL\\)\\)\nconsole: schema version (0 → ${CONSOLE_NEWEST}|${CONSOLE_NEWEST}, up to date) \\(PostgreSQL \\(DATABASE_URL\\)\\)\nAPI: schema version (0 → ${API_NEWEST}|${API_NEWEST}, up to date) \\(PostgreSQL \\(DATABASE_URL\\)\\)\n$`));
    }
    const sql = postgres(url, { max: 1, onnotice: () => undefined });
    try {
      expect(await sql`SELECT version FROM subscribers.schema_migrations ORDER BY version`).toEqual(ALL_VERSIONS);
      // The embedded API's tables are in a schema of their own.
      expect(await sql`SELECT version FROM service.schema_migrations ORDER BY version`).toEqual(SERVICE_MIGRATIONS.migrations.map((migration) => ({ version: migration.version })));
      expect((await sql`SELECT COUNT(*)::int AS n FROM information_schema.tables WHERE table_schema = 'service' AND table_name = 'monitors'`)[0]).toEqual({ n: 1 });
      // A newer Porchlight migrated this database: this one refuses it and writes nothing.
      await sql`INSERT INTO subscribers.schema_migrations (version, description, applied_at) VALUES (${NEWEST + 1}, 'from the future', now())`;
      const refused = await migrateProcess({ DATABASE_URL: url });
      expect([refused.code, refused.stdout, refused.stderr]).toEqual([1, '', `porchlight migrate: the subscribers database is at schema version ${NEWEST + 1}, newer than this Porchlight knows (${NEWEST}): run the newer Porchlight, or restore a backup made with this one\n`]);
      expect((await sql`SELECT COUNT(*)::int AS n FROM subscribers.schema_migrations`)[0]).toEqual({ n: NEWEST + 1 });
    } finally {
      await sql.end({ timeout: 5 });
    }
  }, 120_000);
});
