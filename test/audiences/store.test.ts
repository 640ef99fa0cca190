import { afterEach, describe, expect, it } from 'vitest';
import { AudienceStore, blockAfter, SESSION_ABSOLUTE_MS, SESSION_IDLE_MS, type GrantSource } from '../../src/audiences/store.ts';
import { DIALECTS, useDialects } from '../support/postgres.ts';

const T0 = Date.UTC(2026, 10, 28, 10);
const dialects = useDialects();
const opened: AudienceStore[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.close()));
});
const viaPassphrase: GrantSource = { via: 'passphrase', subject: 'passphrase', invitationId: null };

describe.each(DIALECTS)('AudienceStore on %s', (dialect) => {
  async function open(): Promise<AudienceStore> {
    const store = await AudienceStore.open(dialects.location(dialect));
    opened.push(store);
    return store;
  }

  it('keeps a page\'s settings, changing only the fields given', async () => {
    const store = await open();
    expect(await store.access('page_x')).toBeNull();
    await store.setAccess('page_x', { cidrs: ['10.0.0.0/8'] }, T0);
    await store.setAccess('page_x', { mode: 'sign-in-shown', passphraseHash: 'scrypt$x' }, T0 + 1);
    expect(await store.access('page_x')).toEqual({ pageId: 'page_x', mode: 'sign-in-shown', passphraseHash: 'scrypt$x', cidrs: ['10.0.0.0/8'], oidc: null, updatedAt: T0 + 1 });
    const oidc = { issuer: 'https://id.example', clientId: 'c', clientSecret: 's', emailDomains: ['example.com'], claim: null };
    await store.setAccess('page_x', { oidc }, T0 + 2);
    expect((await store.allAccess())[0]?.oidc).toEqual(oidc);
    expect(await store.removeAccess('page_x')).toBe(true);
    expect(await store.allAccess()).toEqual([]);
  });

  it('opens an invitation only while it is signed right, unexpired and not revoked', async () => {
    const store = await open();
    const { invitation, token } = await store.invite('page_x', 'Ops team', T0 + 3600_000, T0);
    expect((await store.openInvitation(token, T0))?.id).toBe(invitation.id);
    // Another signature, the id alone, an expired link: nothing.
    expect(await store.openInvitation(`${invitation.id}.${'A'.repeat(43)}`, T0)).toBeNull();
    expect(await store.openInvitation(invitation.id, T0)).toBeNull();
    expect(await store.openInvitation(token, T0 + 3600_000)).toBeNull();
    // A session it opened ends with its revocation, and so do its feed addresses.
    const source: GrantSource = { via: 'invitation', subject: 'Ops team', invitationId: invitation.id };
    const session = await store.grant(null, 'page_x', source, T0);
    const feed = await store.newFeedToken('page_x', source, T0);
    expect(await store.sessionGrant(session, 'page_x', T0)).toEqual(source);
    expect(await store.feedTokenPage(feed, T0)).toBe('page_x');
    expect(await store.revokeInvitation(invitation.id, T0 + 1)).toBe(true);
    expect(await store.openInvitation(token, T0 + 2)).toBeNull();
    expect(await store.sessionGrant(session, 'page_x', T0 + 2)).toBeNull();
    expect(await store.feedTokenPage(feed, T0 + 2)).toBeNull();
    expect((await store.invitations('page_x'))[0]?.revokedAt).toBe(T0 + 1);
  });

  it('ends a session after its idle time or its absolute time, and grants only the pages it was given', async () => {
    const store = await open();
    const session = await store.grant(null, 'page_x', viaPassphrase, T0);
    expect(await store.sessionGrant(session, 'page_y', T0)).toBeNull();
    expect(await store.sessionGrant('not-a-session', 'page_x', T0)).toBeNull();
    // The same session gains a second page.
    expect(await store.grant(session, 'page_y', viaPassphrase, T0)).toBe(session);
    expect(await store.sessionGrant(session, 'page_y', T0 + SESSION_IDLE_MS - 1)).not.toBeNull();
    // Used just now: alive past the first idle bound, until the absolute one.
    let at = T0 + SESSION_IDLE_MS - 1;
    while (at + SESSION_IDLE_MS / 2 < T0 + SESSION_ABSOLUTE_MS) {
      at += SESSION_IDLE_MS / 2;
      expect(await store.sessionGrant(session, 'page_x', at)).not.toBeNull();
    }
    expect(await store.sessionGrant(session, 'page_x', T0 + SESSION_ABSOLUTE_MS)).toBeNull();
    const idle = await store.grant(null, 'page_x', viaPassphrase, T0);
    expect(await store.sessionGrant(idle, 'page_x', T0 + SESSION_IDLE_MS + 1)).toBeNull();
    // A dead session is not revived by a new grant: a new one is made.
    expect(await store.grant(idle, 'page_x', viaPassphrase, T0 + SESSION_IDLE_MS + 1)).not.toBe(idle);
  });

  it('slows failed attempts down per key, with growing waits', async () => {
    const store = await open();
    const keys = [{ key: 'page_x 192.0.2.1', free: 5 }];
    const waits: number[] = [];
    for (let attempt = 0; attempt < 10; attempt += 1) waits.push(await store.recordFailure(keys, T0));
    expect(waits).toEqual([0, 0, 0, 0, 1000, 2000, 4000, 8000, 16000, 32000]);
    expect(await store.blockedFor(keys, T0 + 1000)).toBe(31_000);
    expect(await store.blockedFor([{ key: 'page_x 192.0.2.2', free: 5 }], T0)).toBe(0);
    await store.clearFailures(keys);
    expect(await store.blockedFor(keys, T0)).toBe(0);
  });

  it('revokes feed addresses one by one or per page', async () => {
    const store = await open();
    const one = await store.newFeedToken('page_x', viaPassphrase, T0);
    const two = await store.newFeedToken('page_x', { via: 'oidc', subject: 'a@example.com', invitationId: null }, T0);
    expect(await store.revokeFeedToken(one)).toBe(true);
    expect(await store.feedTokenPage(one)).toBeNull();
    expect(await store.feedTokenPage(two)).toBe('page_x');
    expect(await store.revokeFeedTokens('page_x', 'a@example.com')).toBe(1);
    expect(await store.feedTokenPage(two)).toBeNull();
  });
});

it('blockAfter doubles from the first attempt past the free ones, up to 15 minutes', () => {
  expect(blockAfter(4)).toBe(0);
  expect(blockAfter(5)).toBe(1000);
  expect(blockAfter(100)).toBe(15 * 60_000);
  expect(blockAfter(30, 30)).toBe(1000);
});
