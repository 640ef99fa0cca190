/** `porchlight subscribe`: its arguments, where it finds the site, and how the site's answers are told (runCli in process, a stub site). */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subscribeRequest } from '../../src/cli/commands/subscribe.ts';
import { resolveSiteUrl } from '../../src/cli/connection.ts';
import { UsageError } from '../../src/cli/cli-error.ts';
import { runCli } from '../../src/cli/run.ts';
import { writeLocalConnection } from '../../src/server/local-connection.ts';

describe('subscribeRequest', () => {
  it('builds the form the page sends, at the page’s subscribe route under the site’s path', () => {
    const request = subscribeRequest('webhook', 'https://hooks.example.com/x', 'acme', 'ops@example.com', ['API', 'mon_db'], 'https://status.example.com/base');
    expect(request.subscribeUrl).toBe('https://status.example.com/base/acme/subscribe');
    expect([...request.form]).toEqual([['webhook_url', 'https://hooks.example.com/x'], ['contact_email', 'ops@example.com'], ['component', 'API'], ['component', 'mon_db']]);
    expect(subscribeRequest('slack', 'https://hooks.slack.com/services/T/B/X', 'a b', undefined, [], 'http://127.0.0.1:5900/').subscribeUrl).toBe('http://127.0.0.1:5900/a%20b/subscribe');
  });

  it('refuses a missing page, a chat URL named as another kind, and --contact on a chat channel', () => {
    expect(() => subscribeRequest('webhook', 'https://x.example/', undefined, undefined, [], 'http://s/')).toThrow(/--page SLUG is required/);
    expect(() => subscribeRequest('webhook', 'https://hooks.slack.com/services/T/B/X', 'acme', undefined, [], 'http://s/')).toThrow(/is a Slack incoming webhook, not a webhook; use porchlight subscribe slack/);
    expect(() => subscribeRequest('discord', 'https://example.com/hook', 'acme', undefined, [], 'http://s/')).toThrow(/is a webhook, not a Discord webhook; use porchlight subscribe webhook/);
    expect(() => subscribeRequest('teams', 'https://x.webhook.office.com/a', 'acme', 'ops@example.com', [], 'http://s/')).toThrow(/--contact is for webhooks only/);
    // Not a URL: left to the site, which says why in the form's words.
    expect(subscribeRequest('webhook', 'not a url', 'acme', undefined, [], 'http://s/').form.get('webhook_url')).toBe('not a url');
  });
});

describe('resolveSiteUrl', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'pl-cli-site-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('takes --site-url, then SITE_PUBLIC_URL, then the local npm start, else says how to set it', async () => {
    const cacheDir = path.join(dir, 'cache');
    await expect(resolveSiteUrl({}, { CACHE_DIR: cacheDir })).rejects.toThrow(UsageError);
    await writeLocalConnection(cacheDir, { apiUrl: 'http://127.0.0.1:1/api/v1', apiKey: 'k', siteUrl: 'http://127.0.0.1:2', pid: 1 });
    expect(await resolveSiteUrl({}, { CACHE_DIR: cacheDir })).toBe('http://127.0.0.1:2');
    expect(await resolveSiteUrl({}, { CACHE_DIR: cacheDir, SITE_PUBLIC_URL: 'https://s.example' })).toBe('https://s.example');
    expect(await resolveSiteUrl({ siteUrl: 'https://flag.example' }, { SITE_PUBLIC_URL: 'https://s.example' })).toBe('https://flag.example');
    await expect(resolveSiteUrl({ siteUrl: 'ftp://x' }, {})).rejects.toThrow(/must be an http\(s\) address/);
  });
});

describe('porchlight subscribe against a stub site', () => {
  let server: Server;
  let siteUrl: string;
  let last: { url: string; accept: string; body: string } | null = null;
  let answer: { status: number; type: string; body: string } = { status: 200, type: 'application/json', body: '{}' };

  beforeAll(async () => {
    server = createServer((req: IncomingMessage, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        last = { url: req.url ?? '', accept: req.headers.accept ?? '', body: Buffer.concat(chunks).toString() };
        res.writeHead(answer.status, { 'content-type': answer.type }).end(answer.body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    siteUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  async function run(args: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(args, { out: (t) => out.push(t), err: (t) => err.push(t), env: { SITE_PUBLIC_URL: siteUrl, CACHE_DIR: ':memory:' }, now: () => new Date() });
    return { code, out: out.join('\n'), err: err.join('\n') };
  }

  it('posts the form asking for JSON and prints the secret once, or the JSON for scripts', async () => {
    answer = { status: 200, type: 'application/json; charset=utf-8', body: JSON.stringify({ ok: true, id: 'subr_1', channel: 'webhook', page: 'acme', secret: 'whsec_c2VjcmV0' }) };
    const human = await run(['subscribe', 'webhook', 'https://r.example/h', '--page', 'acme', '--component', 'API']);
    expect(human).toMatchObject({ code: 0, err: '' });
    expect(human.out.match(/whsec_c2VjcmV0/g)).toHaveLength(1);
    expect(last).toEqual({ url: '/acme/subscribe', accept: 'application/json', body: 'webhook_url=https%3A%2F%2Fr.example%2Fh&component=API' });
    const json = await run(['subscribe', 'webhook', 'https://r.example/h', '--page', 'acme', '--json']);
    expect(JSON.parse(json.out)).toEqual({ id: 'subr_1', page: 'acme', channel: 'webhook', secret: 'whsec_c2VjcmV0' });
  });

  it('tells a refusal in one line with the site’s reason, exit 1; usage errors exit 2 before anything is sent', async () => {
    answer = { status: 400, type: 'application/json', body: JSON.stringify({ ok: false, problem: 'refused', message: 'This address cannot receive notifications from here.' }) };
    expect(await run(['subscribe', 'webhook', 'https://10.0.0.1/h', '--page', 'acme'])).toEqual({ code: 1, out: '', err: 'porchlight: refused: This address cannot receive notifications from here. (refused, 400)' });
    answer = { status: 404, type: 'text/html', body: '<h1>Not found</h1>' };
    expect((await run(['subscribe', 'slack', 'https://hooks.slack.com/services/T/B/X', '--page', 'gone'])).err).toBe(`porchlight: no public page "gone" at ${siteUrl} (404)`);
    last = null;
    const usage = await run(['subscribe', 'webhook', '--page', 'acme']);
    expect(usage.code).toBe(2);
    expect(usage.err).toMatch(/^porchlight: porchlight subscribe webhook takes URL \(see porchlight subscribe webhook --help\)$/);
    expect((await run(['subscribe', 'webhook', 'https://r.example/h'])).code).toBe(2);
    expect(last).toBeNull();
  });
});
