/**
 * `porchlight subscribe webhook` against the real launcher: the CLI finds the site through
 * CACHE_DIR/local-api.json (nothing else configured), posts to the page's own subscribe route, the
 * running Porchlight sends the signed ping to this test's receiver (loopback, with
 * SUBSCRIPTION_WEBHOOK_ALLOW_PRIVATE=true), the CLI prints the secret once, and an incident then
 * arrives verified with that secret (`standardwebhooks`). Bad URLs: one line on stderr, exit 1,
 * nothing sent, nothing stored.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Webhook } from 'standardwebhooks';
import { request } from 'undici';
import { test, expect } from '@playwright/test';
import { apiFor, demoPage, serveDemoPageBySlug } from './support/api.ts';
import { freePort } from '../../bench/lib/free-port.ts';
import { runPorchlight } from './support/porchlight-cli.ts';
import { startPorchlightProcess, type PorchlightProcess } from './support/porchlight-process.ts';
import { startSmtpSink, type SmtpSink } from './support/smtp-sink.ts';
import { startWebhookReceiver, type ReceivedHook, type WebhookReceiver } from './support/webhook-receiver.ts';

test.describe.configure({ mode: 'serial' });

let sink: SmtpSink;
let site: PorchlightProcess;
let dir: string;
let receiver: WebhookReceiver;
let receiverUrl: string;
let hits: ReceivedHook[];

const porchlight = (args: string[]) => runPorchlight(args, { CACHE_DIR: path.join(dir, 'cache') });
const root = path.resolve(import.meta.dirname, '../..');

/** How many subscribers the operators' script lists (the store as it is, not as the CLI says). */
async function storedCount(): Promise<number> {
  const { stdout } = await promisify(execFile)(process.execPath, ['src/subscribers/cli.ts', 'list'], { cwd: root, env: { PATH: process.env.PATH ?? '', SUBSCRIBERS_DB: path.join(dir, 'subscribers.db') } });
  const total = /^(\d+) subscribers$/m.exec(stdout)?.[1];
  if (total === undefined) throw new Error(`unexpected list output: ${stdout}`);
  return Number(total);
}

test.beforeAll(async () => {
  sink = await startSmtpSink();
  receiver = await startWebhookReceiver();
  receiverUrl = receiver.url;
  hits = receiver.hits;
  dir = await mkdtemp(path.join(tmpdir(), 'pl-e2e-cli-subscribe-'));
  const port = await freePort();
  site = await startPorchlightProcess({
    PORT: String(port),
    SITE_PUBLIC_URL: `http://127.0.0.1:${port}`,
    CACHE_DIR: path.join(dir, 'cache'),
    SUBSCRIPTIONS: 'true',
    SUBSCRIBERS_DB: path.join(dir, 'subscribers.db'),
    SMTP_HOST: '127.0.0.1',
    SMTP_PORT: String(sink.port),
    SUBSCRIPTION_WEBHOOK_ALLOW_PRIVATE: 'true',
    HISTORY_BACKFILL_PAGES: '0',
    METRICS_PORT: '0',
  });
  await expect.poll(async () => (await request(`${site.siteUrl}/readyz`)).statusCode, { timeout: 10_000 }).toBe(200);
  await serveDemoPageBySlug(site);
});

test.afterAll(async () => {
  expect(await site.stop()).toBe(0);
  await sink.stop();
  await receiver.stop();
  await rm(dir, { recursive: true, force: true });
});

test('subscribe webhook: the receiver gets the signed ping, the secret is printed once, and an incident arrives verified with it', async () => {
  const url = `${receiverUrl}/cli-hook`;
  const result = await porchlight(['subscribe', 'webhook', url, '--page', 'acme', '--contact', 'ops@example.com']);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  const secrets = result.stdout.match(/whsec_[A-Za-z0-9+/=]+/g) ?? [];
  expect(secrets).toHaveLength(1);
  const verifier = new Webhook(secrets[0]!);
  const mine = () => hits.filter((hit) => hit.path === '/cli-hook');
  expect(mine()).toHaveLength(1);
  expect((verifier.verify(mine()[0]!.body, mine()[0]!.headers) as { event_type: string }).event_type).toBe('ping');
  // The same URL again: refused as already subscribed, no second secret.
  const again = await porchlight(['subscribe', 'webhook', url, '--page', 'acme']);
  expect(again.code).toBe(1);
  expect(again.stdout).toBe('');
  expect(again.stderr.trim().split('\n')).toHaveLength(1);
  expect(again.stderr).toMatch(/\(exists, 409\)\n$/);
  expect(again.stderr).not.toContain('whsec_');
  // The secret went to the CLI's stdout only: never into the site's logs.
  expect(site.output.join('\n')).not.toContain(secrets[0]!);

  const api = apiFor(site);
  try {
    const acme = await demoPage(api);
    const incident = await api.incidents.create({ monitorIds: [acme.monitors[0]!.monitorId], title: 'Hooked from the CLI', message: 'Looking into it.', severity: 'minor' });
    await expect.poll(() => mine().filter((hit) => hit.body.includes('Hooked from the CLI')).length, { timeout: 15_000 }).toBe(1);
    const hit = mine().find((entry) => entry.body.includes('Hooked from the CLI'))!;
    expect(verifier.verify(hit.body, hit.headers)).toMatchObject({ event_type: 'incident.created', incident: { id: incident.id, name: 'Hooked from the CLI' } });
    await api.incidents.delete(incident.id);
  } finally {
    await api.close();
  }
});

test('a URL with credentials, or an unknown component, is refused in one line on stderr; nothing is sent or stored', async () => {
  // Only these URLs' hits: the first test's webhook may still get that incident's later events.
  const refusedHits = () => hits.filter((hit) => ['/creds', '/typo', '/nopage'].includes(hit.path)).length;
  const before = { hits: refusedHits(), stored: await storedCount() };
  expect(before.stored).toBe(1); // the webhook of the test above: the count reads the store
  const creds = await porchlight(['subscribe', 'webhook', receiverUrl.replace('http://', 'http://user:pw@') + '/creds', '--page', 'acme']);
  expect(creds.code).toBe(1);
  expect(creds.stdout).toBe('');
  expect(creds.stderr).toMatch(/^porchlight: refused: The address may not contain a user name or password\. \(credentials, 400\)\n$/);
  const component = await porchlight(['subscribe', 'webhook', `${receiverUrl}/typo`, '--page', 'acme', '--component', 'No such thing']);
  expect(component.code).toBe(1);
  expect(component.stderr).toMatch(/^porchlight: refused: no component "No such thing" on this page; it has: .+\n$/);
  const page = await porchlight(['subscribe', 'webhook', `${receiverUrl}/nopage`, '--page', 'no-such-page']);
  expect(page.code).toBe(1);
  expect(page.stderr).toMatch(/^porchlight: no public page "no-such-page" at http:\/\/127\.0\.0\.1:\d+ \(404\)\n$/);
  expect(refusedHits()).toBe(0);
  expect(before.hits).toBe(0);
  expect(await storedCount()).toBe(before.stored);
});

test('without the operator allowing it, http:// is refused by the running site with its reason', async () => {
  // A second site without SUBSCRIPTION_WEBHOOK_ALLOW_PRIVATE: the check is the site's, not the CLI's.
  const strictDir = await mkdtemp(path.join(tmpdir(), 'pl-e2e-cli-strict-'));
  const strictPort = await freePort();
  const strict = await startPorchlightProcess({ PORT: String(strictPort), SITE_PUBLIC_URL: `http://127.0.0.1:${strictPort}`, CACHE_DIR: ':memory:', SUBSCRIPTIONS: 'true', SUBSCRIBERS_DB: path.join(strictDir, 'subscribers.db'), SMTP_HOST: '127.0.0.1', SMTP_PORT: String(sink.port), HISTORY_BACKFILL_PAGES: '0', METRICS_PORT: '0' });
  try {
    await expect.poll(async () => (await request(`${strict.siteUrl}/readyz`)).statusCode, { timeout: 10_000 }).toBe(200);
    const result = await runPorchlight(['subscribe', 'webhook', `${receiverUrl}/plain`, '--page', 'acme', '--site-url', strict.siteUrl], {});
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/^porchlight: refused: .+ \(notHttps, 400\)\n$/);
    expect(hits.filter((hit) => hit.path === '/plain')).toHaveLength(0);
  } finally {
    expect(await strict.stop()).toBe(0);
    await rm(strictDir, { recursive: true, force: true });
  }
});
