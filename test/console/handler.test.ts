/**
 * The console's handler behind an https SITE_PUBLIC_URL (TLS ending at a proxy): the cookies carry
 * Secure and the __Host- prefix, sign-in works with the right password only, and the answers are
 * never stored. Real sockets on loopback; the API is never reached by these routes.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { createClient } from '../../src/api/index.ts';
import { hashPassword } from '../../src/auth/password.ts';
import { openAuthDatabase, SessionStore } from '../../src/auth/session-store.ts';
import { SignInThrottle } from '../../src/auth/throttle.ts';
import type { Database } from '../../src/store/database.ts';
import { createConsole } from '../../src/console/handler.ts';
import { ConsoleStore } from '../../src/console/store.ts';

const cheap = { N: 2 ** 10, r: 8, p: 1 };
const HOST = 'status.example.com';
const ORIGIN = `https://${HOST}`;
let server: Server;
let base: string;
let store: ConsoleStore;
let authDb: Database;
const client = createClient({ baseUrl: 'http://127.0.0.1:9/api/v1', apiKey: 'never-used', maxRetries: 0 });

beforeAll(async () => {
  store = await ConsoleStore.open({ dialect: 'sqlite', path: ':memory:' });
  authDb = await openAuthDatabase({ dialect: 'sqlite', path: ':memory:' });
  const { setupToken } = await store.addOperator('ada@example.com', 'responder', Date.now());
  await store.completeSetup(setupToken, await hashPassword('a long enough passphrase', cheap), Date.now());
  const handler = createConsole({ publicUrl: new URL(ORIGIN), port: 0, allowHttp: false, store, sessions: new SessionStore(authDb), throttle: new SignInThrottle(authDb), client, siteLocale: 'en', siteTimeZone: 'UTC', templatesDir: './templates', passwordCost: cheap, log: () => undefined });
  server = createServer((req, res) => void handler.handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/_porchlight/console/`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await client.close();
  await store.close();
  await authDb.close();
});

const cookies = (header: string | string[] | undefined) => (Array.isArray(header) ? header : header ? [header] : []);

describe('the console behind https', () => {
  it('sets __Host- cookies with Secure, HttpOnly, SameSite=Strict and Path=/, and signs in with the right password only', async () => {
    const form = await request(`${base}sign-in`, { headers: { host: HOST } });
    expect(form.statusCode).toBe(200);
    expect(form.headers['cache-control']).toBe('no-store');
    const [preCookie] = cookies(form.headers['set-cookie']);
    expect(preCookie).toMatch(/^__Host-pl-console-pre=[A-Za-z0-9_-]{43}; Max-Age=3600; Path=\/; HttpOnly; SameSite=Strict; Secure$/);
    const pre = preCookie!.split(';')[0]!;
    const csrf = /name="csrf" value="([^"]+)"/.exec(await form.body.text())?.[1] ?? '';
    const post = (password: string, extra: Record<string, string> = {}) =>
      request(`${base}sign-in`, {
        method: 'POST',
        headers: { host: HOST, origin: ORIGIN, 'sec-fetch-site': 'same-origin', cookie: pre, 'content-type': 'application/x-www-form-urlencoded', ...extra },
        body: new URLSearchParams({ csrf, email: 'ada@example.com', password }).toString(),
      });
    const wrong = await post('not the passphrase');
    expect(wrong.statusCode).toBe(401);
    await wrong.body.dump();
    const crossSite = await post('a long enough passphrase', { 'sec-fetch-site': 'cross-site' });
    expect(crossSite.statusCode).toBe(403);
    await crossSite.body.dump();
    const right = await post('a long enough passphrase');
    expect(right.statusCode).toBe(303);
    expect(right.headers.location).toBe('/_porchlight/console/');
    await right.body.dump();
    const session = cookies(right.headers['set-cookie']).find((c) => c.startsWith('__Host-pl-console='));
    expect(session).toMatch(/^__Host-pl-console=[A-Za-z0-9_-]{43}; Max-Age=43200; Path=\/; HttpOnly; SameSite=Strict; Secure$/);
    // The same cookie without its prefix (as a sub-domain could plant it) opens nothing.
    const unprefixed = await request(`${base}audit`, { headers: { host: HOST, cookie: session!.split(';')[0]!.replace('__Host-', '') } });
    expect(unprefixed.statusCode).toBe(303);
    await unprefixed.body.dump();
    const signedIn = await request(`${base}audit`, { headers: { host: HOST, cookie: session!.split(';')[0]! } });
    expect(signedIn.statusCode).toBe(200);
    expect(await signedIn.body.text()).toContain('Signed in as ada@example.com (Responder)');
  });

  it('does not exist on another host name', async () => {
    const answer = await request(`${base}sign-in`, { headers: { host: 'status.acme.test' } });
    expect(answer.statusCode).toBe(404);
    await answer.body.dump();
  });
});
