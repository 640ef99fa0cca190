import { describe, expect, it } from 'vitest';
import { freePort } from '../../bench/lib/free-port.ts';
import { DatabaseUrlError, parseDatabaseUrl } from '../../src/store/database-url.ts';
import { StoreConnectError } from '../../src/store/errors.ts';
import { numberPlaceholders } from '../../src/store/placeholders.ts';
import { checkServerVersion, PostgresDatabase, timeFromPostgres } from '../../src/store/postgres.ts';

describe('the PostgreSQL dialect, without a server', () => {
  it('numbers ? placeholders, leaving those in literals, quoted names and comments alone', () => {
    expect(numberPlaceholders("SELECT * FROM t WHERE a = ? AND b = '?' AND \"c?\" = ? -- why?\nAND d = 'it''s ?' AND e = ?")).toBe(
      "SELECT * FROM t WHERE a = $1 AND b = '?' AND \"c?\" = $2 -- why?\nAND d = 'it''s ?' AND e = $3",
    );
  });

  it('reads timestamptz text (TimeZone UTC) as the floor\'s ISO text, and hands anything else on unchanged', () => {
    expect(timeFromPostgres('2026-11-28 01:02:03.004+00')).toBe('2026-11-28T01:02:03.004Z');
    expect(timeFromPostgres('2026-11-28 01:02:03+00')).toBe('2026-11-28T01:02:03.000Z');
    expect(timeFromPostgres('2026-11-28 01:02:03.12+00')).toBe('2026-11-28T01:02:03.120Z');
    expect(timeFromPostgres('2026-11-28 01:02:03.123456+00')).toBe('2026-11-28T01:02:03.123Z');
    expect(timeFromPostgres('infinity')).toBe('infinity');
    expect(timeFromPostgres('2026-11-28 01:02:03+01')).toBe('2026-11-28 01:02:03+01');
  });

  it('checks DATABASE_URL without repeating it (it may carry a password)', () => {
    expect(parseDatabaseUrl('postgres://u:secret@db.example:6432/porchlight')).toEqual({ hosts: ['db.example:6432'], database: 'porchlight' });
    expect(parseDatabaseUrl('postgresql://u:secret@a:5432,b:5433/p?target_session_attrs=read-write')).toEqual({ hosts: ['a:5432', 'b:5433'], database: 'p' });
    expect(parseDatabaseUrl('postgres://[::1]/p').hosts).toEqual(['[::1]:5432']);
    for (const bad of ['mysql://u:secret@h/p', 'postgres//u:secret@h/p', 'postgres://u:secret@h:99999/p', 'postgres://u:secret@h:port/p', 'postgres://u:secret@a,,b/p', 'secret']) {
      expect(() => parseDatabaseUrl(bad), bad).toThrow(DatabaseUrlError);
      try {
        parseDatabaseUrl(bad);
      } catch (error) {
        expect((error as Error).message).not.toContain('secret');
        expect((error as Error).message).toMatch(/^DATABASE_URL /);
      }
    }
  });

  it('refuses a server older than 15 in one line', () => {
    expect(() => checkServerVersion(140_011, '14.11')).toThrow(new StoreConnectError('the PostgreSQL server (DATABASE_URL) is version 14.11; Porchlight needs PostgreSQL 15 or newer'));
    expect(() => checkServerVersion(150_000, '15.0')).not.toThrow();
  });

  it('names an unreachable server in one line, by host and port, never with the password', async () => {
    const port = await freePort();
    const attempt = PostgresDatabase.open(`postgres://porchlight:hunter2@127.0.0.1:${port}/porchlight`, { schema: 'subscribers', connectTimeoutSeconds: 5 });
    await expect(attempt).rejects.toThrow(new StoreConnectError(`cannot reach the PostgreSQL server at 127.0.0.1:${port} (DATABASE_URL): ECONNREFUSED`));
  });
});
