import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { StoreVersionError } from '../../src/store/errors.ts';
import { migrate, NO_CHANGE, schemaVersion, type MigrationList } from '../../src/store/migrations.ts';
import { PostgresDatabase } from '../../src/store/postgres.ts';
import { SqliteDatabase } from '../../src/store/sqlite.ts';
import { DIALECTS, useDialects } from '../support/postgres.ts';

const LIST: MigrationList = {
  store: 'widgets',
  migrations: [
    { version: 1, description: 'widgets', scripts: { sqlite: 'CREATE TABLE widgets (id TEXT PRIMARY KEY)' } },
    { version: 2, description: 'widget names', scripts: { sqlite: "ALTER TABLE widgets ADD COLUMN name TEXT NOT NULL DEFAULT ''" } },
  ],
};
const AT = Date.UTC(2026, 10, 28, 1, 2, 3, 4);

const dirs: string[] = [];
function tempPath(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pl-store-'));
  dirs.push(dir);
  return join(dir, 'store.db');
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the migration runner', () => {
  it('applies each migration once, records it with its time, and does nothing on the next open', async () => {
    const path = tempPath();
    const db = new SqliteDatabase(path);
    expect(await migrate(db, LIST, () => AT)).toEqual({ from: 0, to: 2 });
    expect(await db.all('SELECT version, description, applied_at FROM schema_migrations ORDER BY version')).toEqual([
      { version: 1, description: 'widgets', applied_at: '2026-11-28T01:02:03.004Z' },
      { version: 2, description: 'widget names', applied_at: '2026-11-28T01:02:03.004Z' },
    ]);
    await db.close();
    const again = new SqliteDatabase(path);
    expect(await migrate(again, LIST)).toEqual({ from: 2, to: 2 });
    expect(await again.get('SELECT COUNT(*) AS n FROM schema_migrations')).toEqual({ n: 2 });
    expect(await schemaVersion(again)).toBe(2);
    await again.close();
  });

  it('adopts a file versioned by user_version before the table existed, and applies only what is newer', async () => {
    const path = tempPath();
    const old = new DatabaseSync(path);
    old.exec("CREATE TABLE widgets (id TEXT PRIMARY KEY); INSERT INTO widgets VALUES ('w1'); PRAGMA user_version = 1");
    old.close();
    const db = new SqliteDatabase(path);
    expect(await migrate(db, LIST, () => AT)).toEqual({ from: 1, to: 2 });
    expect(await db.all('SELECT id, name FROM widgets')).toEqual([{ id: 'w1', name: '' }]);
    expect(await db.all('SELECT version, description FROM schema_migrations ORDER BY version')).toEqual([
      { version: 1, description: 'widgets (recorded before schema_migrations)' },
      { version: 2, description: 'widget names' },
    ]);
    expect(await db.legacyVersion()).toBe(2);
    await db.close();
  });

  it('refuses a database newer than the code, before writing anything, with one line naming the store', async () => {
    const path = tempPath();
    const old = new DatabaseSync(path);
    old.exec('PRAGMA user_version = 7');
    old.close();
    const db = new SqliteDatabase(path);
    const attempt = () => migrate(db, LIST);
    await expect(attempt()).rejects.toThrow(StoreVersionError);
    await expect(attempt()).rejects.toThrow('the widgets database is at schema version 7, newer than this Porchlight knows (2): run the newer Porchlight, or restore a backup made with this one');
    expect(await db.tableExists('schema_migrations')).toBe(false);
    expect(await db.tableExists('widgets')).toBe(false);
    await db.close();
  });

  it('rolls a failing migration back whole and records nothing for it', async () => {
    const db = new SqliteDatabase(':memory:');
    const broken: MigrationList = { store: 'widgets', migrations: [...LIST.migrations, { version: 3, description: 'broken', scripts: { sqlite: 'CREATE TABLE gadgets (id TEXT); SELECT * FROM nowhere' } }] };
    await expect(migrate(db, broken)).rejects.toThrow(/nowhere/);
    expect(await schemaVersion(db)).toBe(2);
    expect(await db.tableExists('gadgets')).toBe(false);
    await db.close();
  });

  it('refuses a list with a gap, and a dialect without a script', async () => {
    const db = new SqliteDatabase(':memory:');
    await expect(migrate(db, { store: 'widgets', migrations: [LIST.migrations[1]!] })).rejects.toThrow('widgets migrations: version 2 at position 1');
    await expect(migrate(db, { store: 'widgets', migrations: [{ version: 1, description: 'later', scripts: { postgres: 'SELECT 1' } }] })).rejects.toThrow('widgets migration 1 has no sqlite script');
    await db.close();
  });
});

const dialects = useDialects();
const BOTH: MigrationList = {
  store: 'widgets',
  migrations: [
    { version: 1, description: 'widgets', scripts: { sqlite: 'CREATE TABLE widgets (id TEXT PRIMARY KEY)', postgres: 'CREATE TABLE widgets (id text PRIMARY KEY)' } },
    { version: 2, description: 'widget names', scripts: { sqlite: "ALTER TABLE widgets ADD COLUMN name TEXT NOT NULL DEFAULT ''", postgres: "ALTER TABLE widgets ADD COLUMN name text NOT NULL DEFAULT ''" } },
    { version: 3, description: 'a SQLite-only rebuild', scripts: { sqlite: 'CREATE TABLE gadgets (id TEXT)', postgres: NO_CHANGE } },
  ],
};

describe.each(DIALECTS)('the migration runner on %s', (dialect) => {
  it('applies each migration once with its time, and refuses a newer database in the same one line', async () => {
    const db = await dialects.database(dialect);
    expect(await migrate(db, BOTH, () => AT)).toEqual({ from: 0, to: 3 });
    expect(await db.all('SELECT version, description, applied_at FROM schema_migrations ORDER BY version')).toEqual([
      { version: 1, description: 'widgets', applied_at: '2026-11-28T01:02:03.004Z' },
      { version: 2, description: 'widget names', applied_at: '2026-11-28T01:02:03.004Z' },
      { version: 3, description: 'a SQLite-only rebuild', applied_at: '2026-11-28T01:02:03.004Z' },
    ]);
    expect(await migrate(db, BOTH)).toEqual({ from: 3, to: 3 });
    const older: MigrationList = { store: 'widgets', migrations: BOTH.migrations.slice(0, 2) };
    await expect(migrate(db, older)).rejects.toThrow(new StoreVersionError('widgets', 3, 2));
    await expect(migrate(db, older)).rejects.toThrow('the widgets database is at schema version 3, newer than this Porchlight knows (2): run the newer Porchlight, or restore a backup made with this one');
    await db.close();
  });

  it('rolls a failing migration back whole and records nothing for it', async () => {
    const db = await dialects.database(dialect);
    const broken: MigrationList = { store: 'widgets', migrations: [...BOTH.migrations, { version: 4, description: 'broken', scripts: { sqlite: 'CREATE TABLE later (id TEXT); SELECT * FROM nowhere', postgres: 'CREATE TABLE later (id text); SELECT * FROM nowhere' } }] };
    await expect(migrate(db, broken)).rejects.toThrow(/nowhere/);
    expect(await schemaVersion(db)).toBe(3);
    expect(await db.tableExists('later')).toBe(false);
    await db.close();
  });
});

describe.runIf(DIALECTS.includes('postgres'))('migrations on PostgreSQL with several processes', () => {
  it('two processes migrating one database at once apply each migration once (the advisory lock)', async () => {
    const where = dialects.location('postgres');
    if (where.dialect !== 'postgres') throw new Error('unreachable');
    const [a, b] = await Promise.all([PostgresDatabase.open(where.url, { schema: where.schema! }), PostgresDatabase.open(where.url, { schema: where.schema! })]);
    // Each migration sleeps a little inside its transaction, so the two runs overlap for sure.
    const slow: MigrationList = { store: 'widgets', migrations: BOTH.migrations.map((m) => ({ ...m, scripts: { postgres: `SELECT pg_sleep(0.2);\n${m.scripts.postgres};\nINSERT INTO applied_log (version) VALUES (${m.version})` } })) };
    await a.transaction((tx) => tx.execScript('CREATE TABLE applied_log (version integer NOT NULL)'));
    const results = await Promise.all([migrate(a, slow), migrate(b, slow)]);
    // One run did the work; the other waited for the whole run (the session lock) and found it done,
    // never a half-way version such as "2 → 3".
    expect(results.map((result) => `${result.from} → ${result.to}`).sort()).toEqual(['0 → 3', '3 → 3']);
    expect(await a.all('SELECT version FROM applied_log ORDER BY version')).toEqual([{ version: 1 }, { version: 2 }, { version: 3 }]);
    expect(await a.get('SELECT COUNT(*) AS n FROM schema_migrations')).toEqual({ n: 3 });
    await Promise.all([a.close(), b.close()]);
  });

  it('keeps each store in its own schema, with its own schema_migrations', async () => {
    const url = dialects.postgresUrl();
    const one = await PostgresDatabase.open(url, { schema: 'store_one' });
    const two = await PostgresDatabase.open(url, { schema: 'store_two' });
    await migrate(one, BOTH);
    await migrate(two, { store: 'other', migrations: BOTH.migrations.slice(0, 1) });
    expect(await schemaVersion(one)).toBe(3);
    expect(await schemaVersion(two)).toBe(1);
    await Promise.all([one.close(), two.close()]);
  });
});
