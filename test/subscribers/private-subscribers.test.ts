import { afterEach, describe, expect, it } from 'vitest';
import { AudienceStore, type GrantSource } from '../../src/audiences/store.ts';
import { EventFeed } from '../../src/subscribers/event-feed.ts';
import type { StoredEvent } from '../../src/subscribers/outbox-sender.ts';
import { eventAudience, type AudienceCheck } from '../../src/subscribers/private-subscribers.ts';
import { SubscriberStore } from '../../src/subscribers/store.ts';
import { DEFAULT_LANGUAGE_SETTINGS } from '../../src/site/public.ts';
import { DIALECTS, useDialects } from '../support/postgres.ts';
import { incident, now, snapshot } from '../site/view/fixtures.ts';

const T0 = Date.UTC(2026, 10, 28, 10);
const dialects = useDialects();
const closing: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(closing.splice(0).map((store) => store.close()));
});
const address = (name: string) => ({ address: `${name}@example.com`, key: `${name}@example.com` });
const byPassphrase: GrantSource = { via: 'passphrase', subject: 'passphrase', invitationId: null };

/** The audiences store as the subscriptions thread asks it. */
const checkOf = (audiences: AudienceStore): AudienceCheck => ({
  hasAudience: async (pageId) => (await audiences.access(pageId)) !== null,
  liveViewers: (pageId, viewerIds, at) => audiences.liveViewers(pageId, viewerIds, at),
});

describe.each(DIALECTS)('subscribers of a page with an audience, on %s', (dialect) => {
  async function stores() {
    const subscribers = await SubscriberStore.open(dialects.location(dialect));
    const audiences = await AudienceStore.open(dialects.location(dialect));
    closing.push(subscribers, audiences);
    return { subscribers, audiences };
  }
  async function confirmedAs(store: SubscriberStore, name: string, viewerId: string | null, pageId = 'p2') {
    const made = await store.subscribe(pageId, address(name), [], T0, 'en', viewerId);
    await store.confirm(made!.token, T0);
    return made!.id;
  }
  /** Who an event recorded now is queued for: the subscribers' addresses, sorted. */
  async function mailedFor(store: SubscriberStore, key: string, audience: Awaited<ReturnType<typeof eventAudience>>, at: number) {
    const queued = await store.recordEvent('p2', key, '{}', new Set(['m2']), at, ['email'], audience);
    const emails = (await store.claimDue(at + 1, 100)).map((due) => due.email).sort();
    // Each earlier row was claimed already: what is claimed now is this event's, as many as were queued.
    expect(emails).toHaveLength(queued);
    return emails;
  }

  it('keeps the viewer a subscriber subscribed as, and lists confirmed ones only', async () => {
    const { subscribers } = await stores();
    const id = await confirmedAs(subscribers, 'ann', 'vwr_ann');
    await subscribers.subscribe('p2', address('pending'), [], T0, 'en', 'vwr_pending');
    await confirmedAs(subscribers, 'pub', null);
    expect((await subscribers.get(id))?.viewerId).toBe('vwr_ann');
    expect(await subscribers.subscribedViewers('p2')).toEqual(['vwr_ann']);
  });

  it('queues an event only for subscribers whose grant is live when it is recorded', async () => {
    const { subscribers, audiences } = await stores();
    const check = checkOf(audiences);
    await audiences.setAccess('p2', { passphraseHash: 'scrypt$old', cidrs: ['10.0.0.0/8'] }, T0);
    const { invitation } = await audiences.invite('p2', 'Ops', T0 + 86_400_000, T0);
    await audiences.grant('vwr_inv', 'p2', { via: 'invitation', subject: 'Ops', invitationId: invitation.id }, T0);
    await audiences.grant('vwr_pass', 'p2', byPassphrase, T0);
    await audiences.grant('vwr_oidc', 'p2', { via: 'oidc', subject: 'ola@example.com', invitationId: null }, T0);
    await confirmedAs(subscribers, 'inv', 'vwr_inv');
    await confirmedAs(subscribers, 'pass', 'vwr_pass');
    await confirmedAs(subscribers, 'oidc', 'vwr_oidc');
    // No viewer (a row from before the link, or an address-range visitor): never mailed for a gated page.
    await confirmedAs(subscribers, 'nobody', null);
    await confirmedAs(subscribers, 'stranger', 'vwr_never_granted');

    const audience = () => eventAudience(subscribers, check, 'p2', T0 + 1_000);
    expect(await mailedFor(subscribers, 'e1', await audience(), T0 + 1_000)).toEqual(['inv@example.com', 'oidc@example.com', 'pass@example.com']);

    await audiences.revokeInvitation(invitation.id, T0 + 2_000);
    await audiences.setAccess('p2', { passphraseHash: 'scrypt$new' }, T0 + 2_000);
    expect(await mailedFor(subscribers, 'e2', await audience(), T0 + 3_000)).toEqual(['oidc@example.com']);

    await audiences.removeGrant('vwr_oidc', 'p2');
    expect(await mailedFor(subscribers, 'e3', await audience(), T0 + 4_000)).toEqual([]);
  });

  it('an invitation past its expiry ends its subscribers\' mails; an audience removed leaves the page mailing no one', async () => {
    const { subscribers, audiences } = await stores();
    const check = checkOf(audiences);
    await audiences.setAccess('p2', {}, T0);
    const { invitation } = await audiences.invite('p2', 'Short', T0 + 10_000, T0);
    await audiences.grant('vwr_short', 'p2', { via: 'invitation', subject: 'Short', invitationId: invitation.id }, T0);
    await confirmedAs(subscribers, 'short', 'vwr_short');
    expect((await eventAudience(subscribers, check, 'p2', T0 + 5_000))?.viewers).toEqual(new Set(['vwr_short']));
    expect((await eventAudience(subscribers, check, 'p2', T0 + 10_000))?.viewers).toEqual(new Set());
    await audiences.removeAccess('p2');
    expect(await eventAudience(subscribers, check, 'p2', T0 + 5_000)).toBeNull();
  });

  it('the feed mails a gated page\'s event to its live viewers only, e-mail only, with links on the main host', async () => {
    const { subscribers, audiences } = await stores();
    await audiences.setAccess('p2', {}, T0);
    await audiences.grant('vwr_ann', 'p2', byPassphrase, T0);
    await confirmedAs(subscribers, 'ann', 'vwr_ann');
    await confirmedAs(subscribers, 'old', null);
    const hook = await subscribers.subscribeEndpoint('p2', { channel: 'webhook', url: 'https://hooks.example/in', host: 'hooks.example', signingSecret: null, contactEmail: null }, [], T0, null);
    expect(hook).not.toBeNull();
    const links = { origin: 'https://status.example', configured: true };
    const feed = await EventFeed.open(subscribers, links, DEFAULT_LANGUAGE_SETTINGS, { pageGraceMs: 3_600_000, monitorDown: false, audiences: checkOf(audiences), now: now.getTime() });
    await feed.take(snapshot({ incidents: [] }), now.getTime());
    const result = await feed.take(snapshot({ incidents: [incident('i9')], fetchedAt: new Date(now.getTime() + 60_000) }), now.getTime() + 60_000);
    const due = (await subscribers.claimDue(now.getTime() + 61_000, 100)).filter((mail) => mail.email === 'ann@example.com' || mail.email === 'old@example.com');
    expect(due.map((mail) => mail.email)).toEqual(['ann@example.com']);
    const stored = JSON.parse(due[0]!.mail) as StoredEvent;
    expect(stored.hook).toBeUndefined();
    // The page's custom domain is not where a private page lives: the links go to the main host's page, which asks to sign in.
    expect(stored.manageBase).toBe('https://status.example/internal/subscribe/manage');
    expect(JSON.stringify(stored)).not.toContain('internal.acme.test');
    expect(result.queued).toBeGreaterThanOrEqual(1);
  });

  it('without the audiences store, a non-public page\'s events are mailed to no one', async () => {
    const { subscribers } = await stores();
    await confirmedAs(subscribers, 'ann', 'vwr_ann');
    const feed = await EventFeed.open(subscribers, { origin: 'https://status.example', configured: true }, DEFAULT_LANGUAGE_SETTINGS, { pageGraceMs: 3_600_000, monitorDown: false, now: now.getTime() });
    await feed.take(snapshot({ incidents: [] }), now.getTime());
    await feed.take(snapshot({ incidents: [incident('i9')], fetchedAt: new Date(now.getTime() + 60_000) }), now.getTime() + 60_000);
    expect((await subscribers.claimDue(now.getTime() + 61_000, 100)).map((mail) => mail.email)).not.toContain('ann@example.com');
  });
});
