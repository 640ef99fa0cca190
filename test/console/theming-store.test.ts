import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { StoreLocation } from '../../src/store/location.ts';
import type { DialectName } from '../../src/store/database.ts';
import { ConsoleStore } from '../../src/console/store.ts';
import { decodeBranding, encodeBranding } from '../../src/console/theming-store.ts';
import { DIALECTS, useDialects } from '../support/postgres.ts';

const dialects = useDialects();
const T0 = Date.UTC(2026, 10, 28, 10);
const opened: ConsoleStore[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.close()));
});
const dir = mkdtempSync(join(tmpdir(), 'pl-theming-store-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

/** One database that two stores open (a restart, another replica): a file for SQLite, one schema for PostgreSQL. */
function sharedLocation(dialect: DialectName): StoreLocation {
  return dialect === 'sqlite' ? { dialect: 'sqlite', path: join(dir, `console-${++files}.db`) } : dialects.location(dialect);
}

describe('branding encoding', () => {
  it('keeps a field whose old value is unknown apart from one that was not set', () => {
    const branding = { brandColor: '#123456', customCss: null, logoUrl: undefined };
    const decoded = decodeBranding(encodeBranding(branding));
    expect(decoded).toEqual(branding);
    expect('logoUrl' in decoded).toBe(true);
    expect('headerText' in decoded).toBe(false);
  });
});

describe.each(DIALECTS)('the theming store on %s', (dialect) => {
  async function open(location: StoreLocation = dialects.location(dialect)) {
    const store = await ConsoleStore.open(location);
    opened.push(store);
    return store;
  }

  it('undoes newest first per page, and the history outlives the process that wrote it', async () => {
    const location = sharedLocation(dialect);
    const first = await ConsoleStore.open(location);
    const history = first.theming().history;
    await history.push({ pageId: 'pg_a', branding: { customCss: null }, replacedAt: new Date(T0).toISOString(), replacedBy: 'operator:op_1 a@example.com' });
    await history.push({ pageId: 'pg_b', branding: { brandColor: '#000000' }, replacedAt: new Date(T0 + 1).toISOString(), replacedBy: null });
    await history.push({ pageId: 'pg_a', branding: { customCss: 'a{}', logoUrl: undefined }, replacedAt: new Date(T0 + 2).toISOString(), replacedBy: 'operator:op_2 b@example.com' });
    await first.close();

    // A restart (or another replica): a new store on the same database.
    const again = (await open(location)).theming().history;
    expect(await again.peek('pg_a')).toEqual({ pageId: 'pg_a', branding: { customCss: 'a{}', logoUrl: undefined }, replacedAt: new Date(T0 + 2).toISOString(), replacedBy: 'operator:op_2 b@example.com' });
    expect((await again.pop('pg_a'))?.branding).toEqual({ customCss: 'a{}', logoUrl: undefined });
    expect((await again.pop('pg_a'))?.branding).toEqual({ customCss: null });
    expect(await again.pop('pg_a')).toBeNull();
    expect(await again.peek('pg_a')).toBeNull();
    expect((await again.pop('pg_b'))?.branding).toEqual({ brandColor: '#000000' });
  });

  it('keeps only the newest versions of a page, and two undoing at once never get the same one', async () => {
    const location = sharedLocation(dialect);
    const history = (await open(location)).theming().history;
    for (let i = 0; i < 25; i += 1) await history.push({ pageId: 'pg_a', branding: { brandColor: `#0000${String(i).padStart(2, '0')}` }, replacedAt: new Date(T0 + i).toISOString(), replacedBy: null });
    const other = (await open(location)).theming().history;
    const taken = await Promise.all([history.pop('pg_a'), other.pop('pg_a'), history.pop('pg_a'), other.pop('pg_a')]);
    const colors = taken.map((version) => version?.branding.brandColor);
    expect(new Set(colors).size).toBe(4);
    expect(colors.every((color) => typeof color === 'string')).toBe(true);
    let left = 0;
    while (await history.pop('pg_a')) left += 1;
    // 20 kept, 4 taken above.
    expect(left).toBe(16);
  });

  it('keeps one draft per operator and page, replaced by the next and gone when discarded', async () => {
    const store = await open();
    const { operator } = await store.addOperator('ed@example.com', 'editor', T0);
    const { operator: other } = await store.addOperator('flo@example.com', 'editor', T0);
    const drafts = store.theming().drafts;
    expect(await drafts.get(operator.id, 'pg_a')).toBeNull();
    await drafts.save(operator.id, 'pg_a', { customCss: 'a{}', brandColor: '#111111' }, T0);
    await drafts.save(operator.id, 'pg_a', { customCss: 'b{}', brandColor: '#222222', headerText: null }, T0 + 1);
    await drafts.save(other.id, 'pg_a', { customCss: 'c{}' }, T0 + 2);
    expect(await drafts.get(operator.id, 'pg_a')).toEqual({ customCss: 'b{}', brandColor: '#222222', headerText: null });
    expect(await drafts.get(other.id, 'pg_a')).toEqual({ customCss: 'c{}' });
    await drafts.discard(operator.id, 'pg_a');
    expect(await drafts.get(operator.id, 'pg_a')).toBeNull();
    expect(await drafts.get(other.id, 'pg_a')).not.toBeNull();
  });
});
