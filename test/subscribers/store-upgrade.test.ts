/**
 * A subscribers.db written by the store before the storage floor (main 36c0376, schema version 2,
 * times in epoch milliseconds) opens with the code of today and loses nothing. The fixture was
 * made by that store's own methods (subscribe, confirm, notePages, recordEvent, claimDue, markSent).
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { StoreVersionError } from '../../src/store/errors.ts';
import { latestVersion } from '../../src/store/migrations.ts';
import { SUBSCRIBER_MIGRATIONS } from '../../src/subscribers/migrations.ts';
import { SubscriberStore } from '../../src/subscribers/store.ts';
import { manageToken, readManageToken } from '../../src/subscribers/tokens.ts';

const FIXTURE = join(import.meta.dirname, 'fixtures', 'subscribers-v2.db');
/** The values the fixture was written with. */
const T0 = Date.UTC(2026, 10, 25, 10) + 123;
const OLD = {
  secret: 'ZPuzH_RbSRs_Mg2PEFqsS-nMyhla9dsKuGV3kxk0MEs',
  alice: 'zmjFMjb-cTfO7f7A',
  bob: 'xC1bn4kVH2HIDnid',
  carol: 'x739RqAu9EKyWR2d',
  carolToken: 'DaUO9FrOpo_rNB7JBKTuPuIzUplWjewJHTQhFkdFP-g',
};

const dirs: string[] = [];
function copyOfFixture(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pl-subscribers-upgrade-'));
  dirs.push(dir);
  const path = join(dir, 'subscribers.db');
  copyFileSync(FIXTURE, path);
  return path;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('a subscribers.db from before the storage floor', () => {
  it('opens, migrates to ISO times and keeps every subscriber, time, token, event, mail and key', async () => {
    const path = copyOfFixture();
    const store = await SubscriberStore.open(path);
    expect((await store.list()).map((s) => [s.id, s.pageId, s.email, s.state, s.components, s.createdAt, s.locale])).toEqual([
      // Oldest first, then by id.
      ['JQ96O4YKAW_eticL', 'page_gone', 'dave@example.com', 'pending', [], T0, null],
      ['ecY2gzGdEkrTqYNP', 'page_gone', 'erin@example.com', 'confirmed', [], T0, null],
      [OLD.alice, 'page_1', 'Alice@Example.com', 'confirmed', [], T0, null],
      [OLD.bob, 'page_1', 'bob@example.com', 'confirmed', ['mon_db'], T0 + 2_002, 'de'],
      [OLD.carol, 'page_1', 'carol@example.com', 'pending', [], T0 + 4_004, 'fr'],
    ]);
    // The link-signing key and the feed's baseline survive: every mailed link still works.
    expect(store.secret()).toBe(OLD.secret);
    expect(readManageToken(store.secret(), manageToken(OLD.secret, OLD.bob))).toBe(OLD.bob);
    expect(await store.readFeedBaseline()).toBe('{"version":1}');
    // Outbox: one sent, two pending since the event's time, due in event order.
    const none = { pending: 0, confirmed: 0, bouncing: 0 };
    expect(await store.stats()).toEqual({
      subscribers: { pending: 2, confirmed: 3, bouncing: 0 },
      // Subscribers from before channels existed are all e-mail.
      subscribersByChannel: { email: { pending: 2, confirmed: 3, bouncing: 0 }, webhook: none, slack: none, discord: none, teams: none },
      outbox: { pending: 2, sending: 0, sent: 1, failed: 0, unknown: 0 }, oldestWaiting: T0 + 8_008 });
    expect(await store.nextDue()).toBe(T0 + 8_008);
    expect(await store.claimDue(T0 + 8_007, 10)).toEqual([]);
    expect(await store.claimDue(T0 + 8_008, 10)).toEqual([
      { subscriberId: OLD.alice, eventId: 2, email: 'Alice@Example.com', locale: null, mail: '{"subject":"Second"}', attempts: 1 },
      { subscriberId: OLD.bob, eventId: 2, email: 'bob@example.com', locale: 'de', mail: '{"subject":"Second"}', attempts: 1 },
    ]);
    // An event already recorded is not recorded (nor mailed) again.
    expect(await store.recordEvent('page_1', 'incident:i1:created', '{}', new Set(['mon_api']), T0 + 10_000)).toBe(0);
    // The pending request's confirmation link lives exactly 48 hours from its mail, as before.
    expect(await store.confirmable(OLD.carolToken, T0 + 4_004 + 48 * 3_600_000)).toBeNull();
    expect(await store.confirm(OLD.carolToken, T0 + 4_004 + 48 * 3_600_000 - 1)).toMatchObject({ id: OLD.carol, state: 'confirmed', locale: 'fr' });
    // The absent page's clock kept its start: its subscribers go one grace period after it.
    expect(await store.notePages(new Set(['page_1']), T0 + 6_006 + 3_600_000 - 1, 3_600_000)).toBe(0);
    expect(await store.notePages(new Set(['page_1']), T0 + 6_006 + 3_600_000, 3_600_000)).toBe(2);
    await store.close();

    const raw = new DatabaseSync(path, { readOnly: true });
    expect(raw.prepare('SELECT created_at, confirmed_at, confirm_expires FROM subscribers WHERE id = ?').get(OLD.alice)).toEqual({ created_at: '2026-11-25T10:00:00.123Z', confirmed_at: '2026-11-25T10:00:01.124Z', confirm_expires: null });
    expect(raw.prepare("SELECT type FROM pragma_table_info('outbox') WHERE name = 'next_attempt'").get()).toEqual({ type: 'TEXT' });
    expect(raw.prepare('PRAGMA foreign_key_check').all()).toEqual([]);
    expect(raw.prepare('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' });
    raw.close();
  });

  it('still cascades: removing a migrated subscriber removes their waiting mails', async () => {
    const store = await SubscriberStore.open(copyOfFixture());
    expect(await store.remove(OLD.bob)).toBe(true);
    expect((await store.stats()).outbox.pending).toBe(1);
    await store.close();
  });

  it('refuses a file migrated by a newer Porchlight, with one clear error, and writes nothing', async () => {
    const path = copyOfFixture();
    await (await SubscriberStore.open(path)).close();
    const newer = new DatabaseSync(path);
    newer.exec("INSERT INTO schema_migrations (version, description, applied_at) VALUES (9, 'from the future', '2027-01-01T00:00:00.000Z')");
    newer.close();
    await expect(SubscriberStore.open(path)).rejects.toThrow(StoreVersionError);
    await expect(SubscriberStore.open(path)).rejects.toThrow(new RegExp(`^the subscribers database is at schema version 9, newer than this Porchlight knows \\(${latestVersion(SUBSCRIBER_MIGRATIONS)}\\)`));
    const after = new DatabaseSync(path, { readOnly: true });
    expect(after.prepare('SELECT MAX(version) AS version FROM schema_migrations').get()).toEqual({ version: 9 });
    after.close();
  });
});
