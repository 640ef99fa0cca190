/**
 * `npm run migrate -- --from-sqlite FILE`: a subscribers' SQLite store copied whole into an empty
 * PostgreSQL one. Every subscriber (pending, confirmed, webhook), the link-signing key (a manage
 * link made before still opens), a confirmation token still confirms, every event and every
 * pending mail arrives; the event ids go on after the copied ones. Refused in one line, with
 * nothing written: a target that is not empty, a file at another schema version, no
 * DATABASE_URL, a missing file.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { parseMigrateArgs, runMigrate } from '../../src/server/migrate.ts';
import { latestVersion } from '../../src/store/migrations.ts';
import { SqliteDatabase } from '../../src/store/sqlite.ts';
import { SERVICE_MIGRATIONS } from '../../src/service/store/migrations.ts';
import { CONSOLE_MIGRATIONS } from '../../src/console/migrations.ts';
import { AUDIENCE_MIGRATIONS } from '../../src/audiences/migrations.ts';
import { Store } from '../../src/service/store/store.ts';
import { seedDemo } from '../../src/service/demo/seed.ts';
import { SUBSCRIBER_MIGRATIONS } from '../../src/subscribers/migrations.ts';
import { parseEmailAddress } from '../../src/subscribers/email-address.ts';
import { SubscriberStore } from '../../src/subscribers/store.ts';
import { manageToken } from '../../src/subscribers/tokens.ts';
import { DIALECTS, startPostgresCluster, type PostgresCluster } from '../support/postgres.ts';

const dir = mkdtempSync(join(tmpdir(), 'pl-from-sqlite-'));
let cluster: PostgresCluster | null = null;
let databases = 0;
afterAll(() => {
  cluster?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function emptyDatabase(): Promise<string> {
  cluster ??= await startPostgresCluster();
  return cluster.createDatabase(`from_sqlite_${++databases}`);
}

async function run(env: NodeJS.ProcessEnv, args: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runMigrate({ SUBSCRIBERS_DB: join(dir, 'unused.db'), ...env }, (line) => out.push(line), (line) => err.push(line), args);
  return { code, out, err };
}

const T0 = Date.parse('2026-11-20T10:00:00.000Z');
const email = (address: string) => parseEmailAddress(address)!;

/** A SQLite store with a bit of everything; what to check afterwards. */
async function filledFile(name: string) {
  const file = join(dir, name);
  const store = await SubscriberStore.open(file);
  try {
    const pending = (await store.subscribe('page_1', email('pending@example.com'), [], T0, 'fr'))!;
    const confirmedRequest = (await store.subscribe('page_1', email('confirmed@example.com'), ['mon_api'], T0, null))!;
    await store.confirm(confirmedRequest.token, T0 + 1_000);
    const other = (await store.subscribe('page_1', email('other@example.com'), [], T0, null))!;
    await store.confirm(other.token, T0 + 1_000);
    const hook = await store.subscribeEndpoint('page_1', { channel: 'webhook', url: 'https://hooks.example.com/a', host: 'hooks.example.com', signingSecret: 'whsec_test', contactEmail: null }, [], T0, null);
    expect(await store.recordEvent('page_1', 'incident:1:created', '{"subject":"one"}', new Set(['mon_api']), T0 + 2_000)).toBeGreaterThanOrEqual(2);
    expect(await store.recordEvent('page_1', 'incident:2:created', '{"subject":"two"}', new Set(['mon_db']), T0 + 3_000)).toBeGreaterThanOrEqual(1);
    await store.writeFeedBaseline('{"seen":["incident:1"]}');
    const subscribers = (await store.list()).map((subscriber) => ({ ...subscriber })).sort((a, b) => a.id.localeCompare(b.id));
    return { file, pending, confirmedId: confirmedRequest.id, hook, subscribers, manageKey: store.secret(), stats: await store.stats() };
  } finally {
    await store.close();
  }
}

describe.runIf(DIALECTS.includes('postgres'))('--from-sqlite with the embedded API\'s store beside the subscribers\'', () => {
  it('copies every organization, page, monitor, check, incident and delivery, and the subscribers, in one run', async () => {
    const apiFile = join(dir, 'api.db');
    const api = await Store.open(apiFile);
    const { organizationId } = await seedDemo(api, new Date(T0));
    await api.close();
    const subscribersFile = (await filledFile('beside-api.db')).file;
    const url = await emptyDatabase();
    const result = await run({ DATABASE_URL: url }, ['--from-sqlite', subscribersFile, '--from-sqlite', apiFile]);
    expect(result.err).toEqual([]);
    expect(result.code).toBe(0);
    expect(result.out[0]).toMatch(/^subscribers: copied \d+ rows /);
    expect(result.out[1]).toMatch(new RegExp(`^API: copied \\d+ rows from ${apiFile} into PostgreSQL`));
    // Every table, row for row (the demo seeds organizations, pages, monitors, checks, incidents...).
    const source = new SqliteDatabase(apiFile);
    const sql = postgres(url, { max: 1, onnotice: () => undefined });
    try {
      const tables = (await source.all("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT IN ('schema_migrations', 'sqlite_sequence')")).map((row) => String(row.name));
      for (const table of ['organizations', 'status_pages', 'monitors', 'checks', 'incidents']) expect(tables).toContain(table);
      for (const table of tables) {
        const [here] = await source.all(`SELECT COUNT(*) AS n FROM "${table}"`);
        const [there] = await sql.unsafe(`SELECT COUNT(*)::int AS n FROM service."${table}"`);
        expect({ table, rows: Number(there?.n) }).toEqual({ table, rows: Number(here?.n) });
      }
      const [checks] = await sql`SELECT COUNT(*)::int AS n FROM service.checks`;
      expect(Number(checks?.n)).toBeGreaterThan(0);
    } finally {
      await source.close();
      await sql.end({ timeout: 5 });
    }
    // The copy opens as the API's store, with the demo organization's data.
    const copied = await Store.open({ dialect: 'postgres', url, schema: 'service' });
    try {
      expect((await copied.db.all('SELECT id FROM organizations')).map((row) => row.id)).toContain(organizationId);
    } finally {
      await copied.close();
    }
  });

});

describe('--from-sqlite arguments', () => {
  it('takes one file, and nothing else', () => {
    expect(parseMigrateArgs([])).toEqual({ fromSqlite: [] });
    expect(parseMigrateArgs(['--from-sqlite', 'a.db'])).toEqual({ fromSqlite: ['a.db'] });
    expect(parseMigrateArgs(['--from-sqlite', 'a.db', '--from-sqlite', 'b.db'])).toEqual({ fromSqlite: ['a.db', 'b.db'] });
    for (const args of [['--from-sqlite'], ['--from-sqlite', '--x'], ['--to', 'a.db'], ['--from-sqlite', 'a.db', 'b.db']]) expect(() => parseMigrateArgs(args)).toThrow('usage: npm run migrate [-- --from-sqlite FILE [--from-sqlite FILE]]');
  });

  it('needs DATABASE_URL, and a file that exists', async () => {
    expect(await run({}, ['--from-sqlite', join(dir, 'x.db')])).toEqual({ code: 1, out: [], err: ['porchlight migrate: --from-sqlite copies into PostgreSQL: set DATABASE_URL'] });
    expect(await run({ DATABASE_URL: 'postgres://u@127.0.0.1:1/x' }, ['--from-sqlite', join(dir, 'missing.db')])).toEqual({ code: 1, out: [], err: [`porchlight migrate: --from-sqlite: no file ${join(dir, 'missing.db')}`] });
  });
});

describe.runIf(DIALECTS.includes('postgres'))('npm run migrate -- --from-sqlite on PostgreSQL', () => {
  it('copies every subscriber, token, key, event and pending mail, in a store that then works', async () => {
    const before = await filledFile('full.db');
    const url = await emptyDatabase();
    const result = await run({ DATABASE_URL: url }, ['--from-sqlite', before.file]);
    expect(result.err).toEqual([]);
    expect(result.code).toBe(0);
    expect(result.out[0]).toMatch(new RegExp(`^subscribers: copied \\d+ rows from ${before.file} into PostgreSQL \\(DATABASE_URL\\): `));
    // Then the usual run: the copied store found up to date, the site store made.
    expect(result.out.slice(1)).toEqual([`subscribers: schema version ${latestVersion(SUBSCRIBER_MIGRATIONS)}, up to date (PostgreSQL (DATABASE_URL))`, 'auth: schema version 0 → 1 (PostgreSQL (DATABASE_URL))', `audiences: schema version 0 → ${latestVersion(AUDIENCE_MIGRATIONS)} (PostgreSQL (DATABASE_URL))`, 'site: schema version 0 → 1 (PostgreSQL (DATABASE_URL))', `console: schema version 0 → ${latestVersion(CONSOLE_MIGRATIONS)} (PostgreSQL (DATABASE_URL))`, `API: schema version 0 → ${latestVersion(SERVICE_MIGRATIONS)} (PostgreSQL (DATABASE_URL))`]);

    const store = await SubscriberStore.open({ dialect: 'postgres', url });
    try {
      expect((await store.list()).map((subscriber) => ({ ...subscriber })).sort((a, b) => a.id.localeCompare(b.id))).toEqual(before.subscribers);
      expect(await store.stats()).toEqual(before.stats);
      // The link-signing key: a manage link made by the old store opens the new one's subscriber.
      expect(store.secret()).toBe(before.manageKey);
      expect(await store.readFeedBaseline()).toBe('{"seen":["incident:1"]}');
      expect(manageToken(store.secret(), before.confirmedId)).toBe(manageToken(before.manageKey, before.confirmedId));
      // A confirmation mailed before the move still confirms after it.
      expect((await store.confirm(before.pending.token, T0 + 5_000))?.state).toBe('confirmed');
      // Every pending mail is there to be sent, with its event.
      const due = await store.claimDue(T0 + 10_000, 100);
      expect(due.map((mail) => [mail.email, mail.eventId]).sort()).toEqual([
        ['confirmed@example.com', 1],
        ['other@example.com', 1],
        ['other@example.com', 2],
      ]);
      // New events are numbered after the copied ones.
      expect(await store.recordEvent('page_1', 'incident:3:created', '{}', new Set(), T0 + 20_000)).toBeGreaterThan(0);
    } finally {
      await store.close();
    }
    const sql = postgres(url, { max: 1, onnotice: () => undefined });
    try {
      expect(await sql`SELECT id::int AS id FROM subscribers.events ORDER BY id`).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
    } finally {
      await sql.end({ timeout: 5 });
    }
  }, 90_000);

  it('refuses a target that is not empty, writing nothing more', async () => {
    const before = await filledFile('twice.db');
    const url = await emptyDatabase();
    expect((await run({ DATABASE_URL: url }, ['--from-sqlite', before.file])).code).toBe(0);
    const again = await run({ DATABASE_URL: url }, ['--from-sqlite', before.file]);
    expect(again).toEqual({ code: 1, out: [], err: [expect.stringMatching(/^porchlight migrate: the subscribers store in PostgreSQL is not empty \(table \w+ has rows\): copy into an empty database$/)] });
    const store = await SubscriberStore.open({ dialect: 'postgres', url });
    try {
      expect(await store.list()).toHaveLength(before.subscribers.length);
    } finally {
      await store.close();
    }
  }, 90_000);

  it('refuses a file at an older schema version, creating nothing in PostgreSQL', async () => {
    const file = join(dir, 'old.db');
    const old = new SqliteDatabase(file);
    await old.run('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, description TEXT NOT NULL, applied_at TEXT NOT NULL)');
    await old.run("INSERT INTO schema_migrations VALUES (1, 'old', '2026-01-01T00:00:00.000Z')");
    await old.close();
    const url = await emptyDatabase();
    const result = await run({ DATABASE_URL: url }, ['--from-sqlite', file]);
    expect(result.code).toBe(1);
    expect(result.err).toEqual([expect.stringMatching(/^porchlight migrate: the subscribers file is at schema version 1, this Porchlight's is \d+: migrate the file first/)]);
    const sql = postgres(url, { max: 1, onnotice: () => undefined });
    try {
      expect(await sql`SELECT nspname FROM pg_namespace WHERE nspname IN ('subscribers', 'site')`).toEqual([]);
    } finally {
      await sql.end({ timeout: 5 });
    }
  }, 90_000);
});
