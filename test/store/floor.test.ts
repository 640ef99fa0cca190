import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { StoreDataError } from '../../src/store/errors.ts';
import { newId } from '../../src/store/ids.ts';
import { createPrivateFile } from '../../src/store/private-file.ts';
import { isStringArray, readRow } from '../../src/store/rows.ts';
import { SqliteDatabase } from '../../src/store/sqlite.ts';
import { readStoredTime, storedTime } from '../../src/store/time.ts';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pl-floor-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the storage floor', () => {
  it('creates database files 0600 with their folder, and narrows an older wider file', () => {
    const dir = tempDir();
    const fresh = join(dir, 'a', 'b', 'fresh.db');
    createPrivateFile(fresh);
    expect(statSync(fresh).mode & 0o777).toBe(0o600);
    const wide = join(dir, 'wide.db');
    writeFileSync(wide, '');
    chmodSync(wide, 0o644);
    writeFileSync(`${wide}-wal`, '');
    chmodSync(`${wide}-wal`, 0o644);
    createPrivateFile(wide);
    expect(statSync(wide).mode & 0o777).toBe(0o600);
    expect(statSync(`${wide}-wal`).mode & 0o777).toBe(0o600);
  });

  it('makes prefixed ids of 96 random bits', () => {
    const ids = new Set(Array.from({ length: 1000 }, () => newId('subr')));
    expect(ids.size).toBe(1000);
    for (const id of ids) expect(id).toMatch(/^subr_[A-Za-z0-9_-]{16}$/);
    expect(() => newId('Bad Prefix')).toThrow(TypeError);
  });

  it('stores times as fixed-width ISO text whose text order is time order', () => {
    const times = [0, 1, 999, 1_000, Date.UTC(2026, 10, 28, 1, 2, 3, 4), Date.UTC(9999, 11, 31, 23, 59, 59, 999)];
    for (const ms of times) expect(readStoredTime(storedTime(ms))).toBe(ms);
    const texts = times.map(storedTime);
    expect([...texts].sort()).toEqual(texts);
    expect(storedTime(Date.UTC(2026, 10, 28, 1, 2, 3, 4))).toBe('2026-11-28T01:02:03.004Z');
    expect(readStoredTime('2026-11-28T01:02:03Z')).toBeNull();
    expect(readStoredTime('1795600800123')).toBeNull();
  });

  it('reads rows strictly: a wrong value names the table, the column and what it found', () => {
    const read = readRow('subscribers', { id: 's1', created_at: 1795600800123, state: 'gone', components: '{"a":1}', locale: null });
    expect(read.text('id')).toBe('s1');
    expect(read.textOrNull('locale')).toBeNull();
    expect(() => read.time('created_at')).toThrow(new StoreDataError('subscribers.created_at: expected an ISO-8601 UTC time, found number 1795600800123'));
    expect(() => read.oneOf('state', ['pending', 'confirmed'])).toThrow('subscribers.state: expected pending|confirmed, found text "gone"');
    expect(() => read.json('components', isStringArray, 'array of monitor ids')).toThrow('subscribers.components: expected JSON array of monitor ids, found text "{\\"a\\":1}"');
    expect(() => read.text('missing')).toThrow('subscribers.missing: expected text, found no such column');
    expect(() => read.textOrNull('missing')).toThrow('subscribers.missing: expected a column, found no such column');
    expect(() => readRow('t', { n: 1.5 }).int('n')).toThrow('t.n: expected an integer, found number 1.5');
  });

  it('runs transactions whole or not at all, and a nested one as a savepoint', async () => {
    const db = new SqliteDatabase(':memory:');
    await db.transaction((tx) => tx.execScript('CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)'));
    await expect(
      db.transaction(async (tx) => {
        await tx.run('INSERT INTO notes (body) VALUES (?)', 'lost');
        throw new Error('stop');
      }),
    ).rejects.toThrow('stop');
    await db.transaction(async (tx) => {
      await tx.run('INSERT INTO notes (body) VALUES (?)', 'outer');
      await expect(
        tx.savepoint(async (inner) => {
          await inner.run('INSERT INTO notes (body) VALUES (?)', 'inner');
          throw new Error('inner only');
        }),
      ).rejects.toThrow('inner only');
    });
    expect(await db.all('SELECT body FROM notes')).toEqual([{ body: 'outer' }]);
    // Generated keys come back through RETURNING, the portable way.
    expect(await db.get('INSERT INTO notes (body) VALUES (?) RETURNING id', 'next')).toEqual({ id: 2 });
    expect(await db.run('UPDATE notes SET body = ? WHERE id = ?', 'changed', 2)).toEqual({ changes: 1 });
    await db.close();
  });

  it('runs calls made while a transaction is open after it, never inside it (one connection, async callers)', async () => {
    const db = new SqliteDatabase(':memory:');
    await db.transaction((tx) => tx.execScript('CREATE TABLE notes (body TEXT NOT NULL)'));
    let release = () => undefined as void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const failing = db.transaction(async (tx) => {
      await tx.run("INSERT INTO notes (body) VALUES ('rolled back')");
      await held;
      throw new Error('undo');
    });
    // Called while the transaction waits: queued behind it, so its rollback cannot take this write.
    const outside = db.run("INSERT INTO notes (body) VALUES ('kept')");
    release();
    await expect(failing).rejects.toThrow('undo');
    await outside;
    expect(await db.all('SELECT body FROM notes')).toEqual([{ body: 'kept' }]);
    await db.close();
  });
});
