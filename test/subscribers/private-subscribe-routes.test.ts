/**
 * The subscription routes of a page with an audience, on the real subscriptions service (its own
 * HTTP port, a real SMTP sink, the audiences and sign-in stores on SQLite; the grant logic runs on
 * both dialects in private-subscribers.test.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { announceSnapshot } from '../../src/site/data/snapshot-channel.ts';
import { startSubscriptions, type RunningSubscriptions } from '../../src/subscribers/service.ts';
import { AudienceStore } from '../../src/audiences/store.ts';
import { SubscriberStore } from '../../src/subscribers/store.ts';
import { VIEWER_SESSION_POLICY } from '../../src/audiences/gated-routes.ts';
import { openAuthDatabase, SessionStore } from '../../src/auth/session-store.ts';
import type { Database } from '../../src/store/database.ts';
import { linkIn, startSmtpSink, type SmtpSink } from '../e2e/support/smtp-sink.ts';
import { incident, now, snapshot } from '../site/view/fixtures.ts';

let sink: SmtpSink;
let dir: string;
const cleanup: (() => Promise<void>)[] = [];
beforeAll(async () => {
  sink = await startSmtpSink();
});
afterAll(async () => {
  await sink.stop();
});
afterEach(async () => {
  for (const close of cleanup.splice(0).reverse()) await close();
  sink.mails.length = 0;
  rmSync(dir, { recursive: true, force: true });
});

const later = (minutes: number) => new Date(now.getTime() + minutes * 60_000);
const at = (minutes: number, extra: Parameters<typeof snapshot>[0] = {}) => snapshot({ fetchedAt: later(minutes), ...extra });
const MAIN = 'status.example.com';

async function until(check: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function setUp() {
  dir = mkdtempSync(join(tmpdir(), 'pl-private-subs-'));
  const locations = { audiences: { dialect: 'sqlite' as const, path: join(dir, 'audiences.db') }, auth: { dialect: 'sqlite' as const, path: join(dir, 'auth.db') } };
  const audiences = await AudienceStore.open(locations.audiences);
  const authDb: Database = await openAuthDatabase(locations.auth);
  cleanup.push(() => audiences.close(), () => authDb.close());
  await audiences.setAccess('p2', {});
  const { invitation } = await audiences.invite('p2', 'Ops', Date.now() + 86_400_000);
  await audiences.grant('vwr_ann', 'p2', { via: 'invitation', subject: 'Ops', invitationId: invitation.id });
  const { token } = await new SessionStore(authDb, VIEWER_SESSION_POLICY).create({ kind: 'viewer', id: 'vwr_ann' }, Date.now());
  const service: RunningSubscriptions = await startSubscriptions({
    database: join(dir, 'subscribers.db'),
    smtp: { host: '127.0.0.1', port: sink.port, secure: false, from: 'Status <status@example.com>' },
    links: { origin: `https://${MAIN}`, configured: true },
    retryBaseMs: 100,
    audiences: locations,
  });
  cleanup.push(() => service.close());
  announceSnapshot('loaded', at(0, { incidents: [] }));
  await new Promise((resolve) => setTimeout(resolve, 50));
  // Over HTTPS (the links' origin) from a non-loopback address, the site names the cookie `__Host-…`.
  return { service, audiences, invitation, token, cookie: `__Host-porchlight-viewer=${token}` };
}

async function call(service: RunningSubscriptions, method: 'GET' | 'POST', path: string, options: { body?: string; cookie?: string; host?: string } = {}) {
  const answer = await request(`${service.origin}${path}`, {
    method,
    ...(options.body !== undefined && { body: options.body }),
    headers: { host: options.host ?? MAIN, 'content-type': 'application/x-www-form-urlencoded', 'x-porchlight-client': '192.0.2.7', ...(options.cookie && { cookie: options.cookie }) },
  });
  const { date: _date, ...headers } = answer.headers;
  return { status: answer.statusCode, headers, body: await answer.body.text() };
}

describe('subscribing to a page with an audience', () => {
  it('a stranger gets a missing page\'s exact answer on every route; a viewer subscribes by e-mail only, confirms from the mail, and is mailed until the invitation is revoked', async () => {
    const { service, audiences, invitation, token, cookie } = await setUp();
    // A stranger (no cookie, a forged cookie, a made-up token) gets exactly what a page that does not exist gets.
    for (const [method, route, body] of [['POST', 'subscribe', 'email=eve%40example.com'], ['GET', 'subscribe', undefined], ['GET', 'subscribe/confirm?t=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', undefined], ['POST', 'subscribe/manage', 't=x&action=unsubscribe']] as const) {
      const missing = await call(service, method, `/no-such-page/${route}`, { ...(body && { body }) });
      expect(missing.status).toBe(404);
      expect(await call(service, method, `/internal/${route}`, { ...(body && { body }) })).toEqual(missing);
      expect(await call(service, method, `/internal/${route}`, { ...(body && { body }), cookie: '__Host-porchlight-viewer=forged' })).toEqual(missing);
      // The session's token under the plain-HTTP name, over HTTPS (a cookie another host could have set): nothing.
      expect(await call(service, method, `/internal/${route}`, { ...(body && { body }), cookie: `porchlight-viewer=${token}` })).toEqual(missing);
    }
    expect(sink.mails).toHaveLength(0);

    // A viewer: webhooks and chat are refused with the reason; e-mail is taken.
    const hook = await call(service, 'POST', '/internal/subscribe', { body: 'webhook_url=https%3A%2F%2Fhooks.example%2Fin', cookie });
    expect(hook.status).toBe(400);
    expect(hook.body).toContain('This is a private page: it can be subscribed to by e-mail only');
    expect((await call(service, 'POST', '/internal/subscribe', { body: 'email=ann%40example.com', cookie })).status).toBe(200);
    await until(() => sink.mailsTo('ann@example.com').length === 1);
    const link = new URL(linkIn(sink.mailsTo('ann@example.com')[0]!, '/subscribe/confirm'));
    // The page's own address on the main host (never its custom domain), which asks a stranger to sign in.
    expect(`${link.origin}${link.pathname}`).toBe(`https://${MAIN}/internal/subscribe/confirm`);
    // The mail's link opens in a browser without the session (SameSite=Strict): the token admits it while the grant is live.
    expect((await call(service, 'GET', `/internal/subscribe/confirm${link.search}`)).body).toContain('<form method="post" action="confirm">');
    expect((await call(service, 'POST', '/internal/subscribe/confirm', { body: `t=${link.searchParams.get('t')}` })).body).toContain('You are subscribed');

    announceSnapshot('loaded', at(1, { incidents: [incident('i1')] }));
    await until(() => sink.mailsTo('ann@example.com').length === 2);
    const mail = sink.mailsTo('ann@example.com')[1]!;
    expect(mail.parsed.subject).toContain('Incident i1');
    expect(mail.parsed.text).not.toContain('internal.acme.test');

    // A public page's subscriber, whose mail of the next incident shows it was recorded and sent.
    const publicPage = { host: 'status.acme.test' };
    expect((await call(service, 'POST', '/subscribe', { ...publicPage, body: 'email=pub%40example.com' })).status).toBe(200);
    await until(() => sink.mailsTo('pub@example.com').length === 1);
    const pubLink = new URL(linkIn(sink.mailsTo('pub@example.com')[0]!, '/subscribe/confirm'));
    expect((await call(service, 'POST', '/subscribe/confirm', { ...publicPage, body: `t=${pubLink.searchParams.get('t')}` })).body).toContain('You are subscribed');

    // Revoked: the next incident mails nobody of the private page; the manage link is a missing page's.
    await audiences.revokeInvitation(invitation.id);
    announceSnapshot('loaded', at(2, { incidents: [incident('i1'), incident('i2')] }));
    await until(() => sink.mailsTo('pub@example.com').some((received) => received.parsed.subject?.includes('Incident i2') === true));
    // The event's rows are written in one transaction: pub's i2 mail means ann's row would be there too.
    // The outbox holds ann's i1 and pub's i2, and nothing for ann's i2.
    const store = await SubscriberStore.open(join(dir, 'subscribers.db'));
    const outbox = (await store.stats()).outbox;
    await store.close();
    expect(Object.values(outbox).reduce((sum, count) => sum + count, 0)).toBe(2);
    expect(sink.mailsTo('ann@example.com')).toHaveLength(2);
    const manage = new URL(linkIn(mail, '/subscribe/manage'));
    expect(await call(service, 'GET', `/internal/subscribe/manage${manage.search}`)).toEqual(await call(service, 'GET', `/no-such-page/subscribe/manage${manage.search}`));
  });
});
