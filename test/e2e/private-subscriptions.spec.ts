/**
 * Subscribers of a page with an audience (issue 32, docs/private-pages.md#subscriptions), against
 * the real server, its embedded API and a real SMTP server on loopback: viewers let in by
 * invitation subscribe from the page and confirm from the mail; an incident is mailed to them;
 * once one invitation is revoked, the next incident mails its viewer nothing (the other viewer,
 * still let in, is mailed: the event was recorded); a stranger's subscribe POST gets the missing
 * page's bytes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, expect, type Browser } from '@playwright/test';
import { request } from 'undici';
import { freePort } from '../../bench/lib/free-port.ts';
import { apiFor, demoPage } from './support/api.ts';
import { runPorchlight } from './support/porchlight-cli.ts';
import { startPorchlightProcess, type PorchlightProcess } from './support/porchlight-process.ts';
import { linkIn, startSmtpSink, type SmtpSink } from './support/smtp-sink.ts';

test.describe.configure({ mode: 'serial' });

let site: PorchlightProcess;
let sink: SmtpSink;
let dir: string;
let cliEnv: Record<string, string>;

async function cli(...args: string[]): Promise<string> {
  const result = await runPorchlight([...args, '--site-url', site.siteUrl], cliEnv);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return result.stdout;
}

test.beforeAll(async () => {
  sink = await startSmtpSink();
  dir = mkdtempSync(join(tmpdir(), 'pl-e2e-private-subs-'));
  const port = await freePort();
  site = await startPorchlightProcess({
    PORT: String(port),
    SITE_PUBLIC_URL: `http://127.0.0.1:${port}`,
    SUBSCRIPTIONS: 'true',
    SUBSCRIBERS_DB: join(dir, 'subscribers.db'),
    AUDIENCES_DB: join(dir, 'audiences.db'),
    SMTP_HOST: '127.0.0.1',
    SMTP_PORT: String(sink.port),
    SMTP_FROM: 'Acme status <status@acme.test>',
    HISTORY_BACKFILL_PAGES: '0',
  });
  cliEnv = { STATUS_API_URL: site.apiUrl, STATUS_API_KEY: site.apiKey, AUDIENCES_DB: join(dir, 'audiences.db') };
  await cli('page-access', 'set', 'internal');
});

test.afterAll(async () => {
  await site?.stop();
  await sink?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** A visitor let in by a new invitation subscribes from the page and confirms from the mail. Returns the invitation's id. */
async function subscribeAsViewer(browser: Browser, label: string, address: string): Promise<string> {
  const invitation = JSON.parse(await cli('page-access', 'invite', 'internal', '--label', label, '--json')) as { url: string; id: string };
  const viewer = await browser.newContext();
  const page = await viewer.newPage();
  await page.goto(invitation.url);
  await expect(page).toHaveURL(/\/internal\/$/);
  const form = page.locator('#subscribe');
  await form.getByLabel('E-mail address').fill(address);
  await form.getByRole('button', { name: 'Subscribe' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Check your inbox');
  await expect.poll(() => sink.mailsTo(address).length, { timeout: 15_000 }).toBe(1);
  const confirm = linkIn(sink.mailsTo(address)[0]!, '/subscribe/confirm');
  expect(confirm.startsWith(`${site.siteUrl}/internal/subscribe/confirm?`)).toBe(true);
  // Opened as from a mail: a new browser context, without the session.
  const mailReader = await browser.newContext();
  const confirmPage = await mailReader.newPage();
  await confirmPage.goto(confirm);
  await confirmPage.getByRole('button', { name: 'Confirm subscription' }).click();
  await expect(confirmPage.getByRole('heading', { level: 1 })).toHaveText('You are subscribed');
  await mailReader.close();
  await viewer.close();
  return invitation.id;
}

test('viewers subscribe and are mailed; a revoked invitation\'s viewer is mailed nothing more; a stranger gets the missing page\'s bytes', async ({ browser }) => {
  test.setTimeout(120_000);
  // A stranger's subscribe POST, as a form posts it: exactly a missing page's answer.
  const strangerPost = async (slug: string) => {
    const answer = await request(`${site.siteUrl}/${slug}/subscribe`, { method: 'POST', body: 'email=eve%40example.com', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: site.siteUrl } });
    const { date: _date, ...headers } = answer.headers;
    return { status: answer.statusCode, headers, body: Buffer.from(await answer.body.arrayBuffer()).toString('base64') };
  };
  expect(await strangerPost('internal')).toEqual(await strangerPost('no-such-page'));

  const revoked = await subscribeAsViewer(browser, 'Build farm', 'ann@example.com');
  await subscribeAsViewer(browser, 'Ops', 'bob@example.com');

  const api = apiFor(site);
  try {
    const internal = await demoPage(api, 'internal');
    const monitorIds = [internal.monitors[0]!.monitorId];
    const first = await api.incidents.create({ monitorIds, title: 'Build farm queue stalled', message: 'Jobs wait.', severity: 'major' });
    await expect.poll(() => sink.mailsTo('ann@example.com').length, { timeout: 20_000 }).toBe(2);
    await expect.poll(() => sink.mailsTo('bob@example.com').length, { timeout: 20_000 }).toBe(2);
    const mail = sink.mailsTo('ann@example.com')[1]!;
    expect(mail.parsed.subject).toContain('Build farm queue stalled');
    // Its links go to the page, which asks a stranger to sign in (here: the missing page's 404).
    const permalink = linkIn(mail, '/internal/incidents/');
    expect((await request(permalink)).statusCode).toBe(404);

    await cli('page-access', 'revoke', revoked);
    const second = await api.incidents.create({ monitorIds, title: 'Runner pool drained', message: 'Looking.', severity: 'minor' });
    // Bob, still let in, gets it: the event was recorded, with no mail for Ann.
    await expect.poll(() => sink.mailsTo('bob@example.com').length, { timeout: 20_000 }).toBe(3);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(sink.mailsTo('ann@example.com')).toHaveLength(2);
    await api.incidents.delete(first.id);
    await api.incidents.delete(second.id);
  } finally {
    await api.close();
  }
});
