import { afterEach, describe, expect, it } from 'vitest';
import { AudienceStore, type GrantSource } from '../../src/audiences/store.ts';
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
    // What it opened ends with its revocation: the viewer's grant and feed addresses.
    const source: GrantSource = { via: 'invitation', subject: 'Ops team', invitationId: invitation.id };
    await store.grant('vwr_a', 'page_x', source, T0);
    const feed = await store.newFeedToken('page_x', source, T0);
    expect(await store.grantOf('vwr_a', 'page_x', T0)).toEqual(source);
    expect(await store.feedTokenPage(feed, T0)).toBe('page_x');
    // An expired invitation's grant ends with it too.
    expect(await store.grantOf('vwr_a', 'page_x', T0 + 3600_000)).toBeNull();
    expect(await store.revokeInvitation(invitation.id, T0 + 1)).toBe(true);
    expect(await store.openInvitation(token, T0 + 2)).toBeNull();
    expect(await store.grantOf('vwr_a', 'page_x', T0 + 2)).toBeNull();
    expect(await store.feedTokenPage(feed, T0 + 2)).toBeNull();
    expect((await store.invitations('page_x'))[0]?.revokedAt).toBe(T0 + 1);
  });

  it('grants a viewer only the pages it was given', async () => {
    const store = await open();
    await store.grant('vwr_a', 'page_x', viaPassphrase, T0);
    expect(await store.grantOf('vwr_a', 'page_x', T0)).toEqual(viaPassphrase);
    expect(await store.grantOf('vwr_a', 'page_y', T0)).toBeNull();
    expect(await store.grantOf('vwr_b', 'page_x', T0)).toBeNull();
    await store.removeAccess('page_x');
    expect(await store.grantOf('vwr_a', 'page_x', T0)).toBeNull();
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

describe.each(DIALECTS)('Viewers of a page on %s', (dialect) => {
  it('lists each grant with whether it is live, and removing one ends that viewer\'s feed addresses only', async () => {
    const store = await AudienceStore.open(dialects.location(dialect));
    opened.push(store);
    const { invitation } = await store.invite('page_x', 'Contractors', T0 + 3600_000, T0);
    const viaLink: GrantSource = { via: 'invitation', subject: 'Contractors', invitationId: invitation.id };
    await store.grant('vwr_a', 'page_x', viaLink, T0);
    await store.grant('vwr_b', 'page_x', viaLink, T0 + 1);
    await store.grant('vwr_c', 'page_y', viaPassphrase, T0);
    const feedA = await store.newFeedToken('page_x', viaLink, T0, 'vwr_a');
    const feedB = await store.newFeedToken('page_x', viaLink, T0, 'vwr_b');
    expect(await store.viewers('page_x', T0)).toEqual([
      { viewerId: 'vwr_a', ...viaLink, createdAt: T0, live: true },
      { viewerId: 'vwr_b', ...viaLink, createdAt: T0 + 1, live: true },
    ]);
    expect((await store.viewers('page_x', T0 + 3600_000)).map((v) => v.live)).toEqual([false, false]);
    expect(await store.removeGrant('vwr_a', 'page_x', T0 + 2)).toBe(true);
    expect(await store.removeGrant('vwr_a', 'page_x', T0 + 2)).toBe(false);
    expect(await store.grantOf('vwr_a', 'page_x', T0 + 2)).toBeNull();
    expect(await store.feedTokenPage(feedA, T0 + 2)).toBeNull();
    // The other viewer of the same invitation reads on.
    expect(await store.grantOf('vwr_b', 'page_x', T0 + 2)).toEqual(viaLink);
    expect(await store.feedTokenPage(feedB, T0 + 2)).toBe('page_x');
    expect((await store.viewers('page_x', T0 + 2)).map((v) => v.viewerId)).toEqual(['vwr_b']);
    expect((await store.viewers('page_y', T0)).map((v) => v.viewerId)).toEqual(['vwr_c']);
  });
});

describe.each(DIALECTS)('OpenID Connect sign-ins on %s', (dialect) => {
  it('are taken once, by the browser that started them, before they expire', async () => {
    const store = await AudienceStore.open(dialects.location(dialect));
    opened.push(store);
    await store.startOidc('state-1', 'page_x', 'browser-1', 'verifier', 'nonce', T0);
    expect(await store.takeOidc('state-1', 'browser-2', T0)).toBeNull();
    expect(await store.takeOidc('state-1', null, T0)).toBeNull();
    expect(await store.takeOidc('state-1', 'browser-1', T0)).toEqual({ pageId: 'page_x', codeVerifier: 'verifier', nonce: 'nonce' });
    // A replayed callback.
    expect(await store.takeOidc('state-1', 'browser-1', T0)).toBeNull();
    await store.startOidc('state-2', 'page_x', 'browser-1', 'v', 'n', T0);
    expect(await store.takeOidc('state-2', 'browser-1', T0 + 10 * 60_000)).toBeNull();
  });
});
