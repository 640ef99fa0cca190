import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { StoreVersionError } from '../../src/store/errors.ts';
import { migrate, schemaVersion, type MigrationList } from '../../src/store/migrations.ts';
import { SqliteDatabase } from '../../src/store/sqlite.ts';

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
