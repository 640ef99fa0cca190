/**
 * The published Caddy deployment, for real: Debian's Caddy with the Caddyfile from the docs in
 * front of a real Porchlight, issuing from its own local CA (no ACME server, no network), and
 * asking Porchlight's gate before every new certificate. Clients trust only that CA's root, so a
 * passing handshake is a verified certificate for the name asked.
 */
import { execFile } from 'node:child_process';
import { request as httpsRequest } from 'node:https';
import type { PeerCertificate } from 'node:tls';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { request } from 'undici';
import { createClient, type ApiClient } from '../../src/api/index.ts';
import { chromiumArgs, chromiumPath } from './support/chromium.ts';
import { caddyBinary, publishedCaddyfile, startCaddy, type RunningCaddy } from './support/caddy.ts';
import { freePort } from '../../bench/lib/free-port.ts';
import { runNginx, type RunningNginx } from './support/nginx.ts';
import { startPorchlightProcess, type PorchlightProcess } from './support/porchlight-process.ts';
import { expect, test } from '@playwright/test';

const STATUS_HOST = 'status.example.test';

interface HttpsAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  certificate: PeerCertificate;
}

/** GET https://NAME:PORT/PATH over loopback, trusting only `ca`: fails at the handshake when no certificate is given. */
function httpsGet(name: string, port: number, ca: string, path = '/'): Promise<HttpsAnswer> {
  return new Promise((resolve, reject) => {
    const request = httpsRequest(
      { host: '127.0.0.1', port, path, servername: name, headers: { host: `${name}:${port}` }, ca, timeout: 15_000, agent: false },
      (response) => {
        const certificate = (response.socket as import('node:tls').TLSSocket).getPeerCertificate();
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString('utf8'), certificate }));
      },
    );
    request.on('timeout', () => request.destroy(new Error('timed out')));
    request.on('error', reject);
    request.end();
  });
}

async function gate(porchlight: PorchlightProcess, name: string): Promise<number> {
  return (await fetch(`${porchlight.siteUrl}/_porchlight/tls-allowed?domain=${encodeURIComponent(name)}`)).status;
}

test.describe('custom domains on HTTPS through Caddy', () => {
  test.describe.configure({ mode: 'serial', timeout: 90_000 });
  let porchlight: PorchlightProcess;
  let caddy: RunningCaddy;
  let client: ApiClient;
  let root: string;

  test.beforeAll(async () => {
    test.setTimeout(60_000);
    // With push working the data is polled only every PUSH_POLL_SECONDS, and no push announces a
    // page's changes: the gate must get the pages list read within CACHE_FRESH_SECONDS itself.
    porchlight = await startPorchlightProcess({ SITE_PUBLIC_URL: `https://${STATUS_HOST}`, CACHE_FRESH_SECONDS: '2', PUSH_POLL_SECONDS: '300' });
    client = createClient({ baseUrl: porchlight.apiUrl, apiKey: porchlight.apiKey, maxRetries: 0 });
    await expect.poll(() => gate(porchlight, 'status.acme.test'), { timeout: 20_000 }).toBe(200);
    caddy = await startCaddy({ upstream: new URL(porchlight.siteUrl).host, statusHost: STATUS_HOST });
    await expect.poll(async () => (await caddy.rootCertificate().catch(() => '')).includes('BEGIN CERTIFICATE'), { timeout: 20_000 }).toBe(true);
    root = await caddy.rootCertificate();
  });

  test.afterAll(async () => {
    await caddy?.stop();
    await client?.close();
    await porchlight?.stop();
  });

  test('the published Caddyfile is valid', async () => {
    const { stdout, stderr } = await promisify(execFile)(caddyBinary, ['validate', '--config', publishedCaddyfile, '--adapter', 'caddyfile'], {
      env: { ...process.env, HOME: '/tmp', STATUS_HOST },
    });
    expect(`${stdout}${stderr}`).toContain('Valid configuration');
  });

  test('a public page\'s custom domain gets a verified certificate on demand and its page, with HSTS', async () => {
    const answer = await httpsGet('status.acme.test', caddy.httpsPort, root);
    expect(answer.status).toBe(200);
    expect(answer.body).toContain('Acme Cloud Status');
    expect(answer.certificate.subjectaltname).toContain('DNS:status.acme.test');
    expect(answer.headers['strict-transport-security']).toBe('max-age=31536000');
    // Links read away from the page name the custom domain over HTTPS (SITE_PUBLIC_URL's scheme).
    const status = JSON.parse((await httpsGet('status.acme.test', caddy.httpsPort, root, '/api/v2/status.json')).body) as { page: { url: string } };
    expect(status.page.url).toBe('https://status.acme.test/');
  });

  test('the main host has its certificate too', async () => {
    const answer = await httpsGet(STATUS_HOST, caddy.httpsPort, root, '/acme/');
    expect(answer.status).toBe(200);
    expect(answer.certificate.subjectaltname).toContain(`DNS:${STATUS_HOST}`);
  });

  test('a name no public page claims is refused at the handshake', async () => {
    await expect(httpsGet('unclaimed.example.test', caddy.httpsPort, root)).rejects.toThrow();
    expect(await gate(porchlight, 'unclaimed.example.test')).toBe(404);
  });

  test('plain HTTP is redirected to HTTPS', async () => {
    // fetch() will not send another Host: undici's request does.
    const response = await request(`http://127.0.0.1:${caddy.httpPort}/history/`, { headers: { host: 'status.acme.test' } });
    await response.body.dump();
    expect(response.statusCode).toBe(308);
    expect(response.headers.location).toBe('https://status.acme.test/history/');
  });

  test('a page made non-public gets no certificate for its domain, and one again once public', async () => {
    const beta = await client.statusPages.create({ name: 'Beta Status', slug: 'beta-tls', customDomain: 'status.beta.test', isPublic: true });
    try {
      await expect.poll(() => gate(porchlight, 'status.beta.test'), { timeout: 10_000 }).toBe(200);
      await client.statusPages.update(beta.id, { isPublic: false });
      await expect.poll(() => gate(porchlight, 'status.beta.test'), { timeout: 10_000 }).toBe(404);
      await expect(httpsGet('status.beta.test', caddy.httpsPort, root)).rejects.toThrow();
      await client.statusPages.update(beta.id, { isPublic: true });
      await expect.poll(() => gate(porchlight, 'status.beta.test'), { timeout: 10_000 }).toBe(200);
      const answer = await httpsGet('status.beta.test', caddy.httpsPort, root);
      expect(answer.status).toBe(200);
      expect(answer.body).toContain('Beta Status');
    } finally {
      await client.statusPages.delete(beta.id);
    }
  });

  test('the page over HTTPS loads nothing over plain HTTP', async ({ playwright }) => {
    const browser = await playwright.chromium.launch({
      executablePath: chromiumPath,
      args: [...chromiumArgs, `--host-resolver-rules=MAP status.acme.test 127.0.0.1`],
    });
    try {
      // Caddy's local root is not in the browser's store; the certificate itself was verified above.
      const context = await browser.newContext({ ignoreHTTPSErrors: true });
      const page = await context.newPage();
      const insecure: string[] = [];
      page.on('request', (request) => {
        if (request.url().startsWith('http:')) insecure.push(request.url());
      });
      page.on('console', (message) => {
        if (/mixed content/i.test(message.text())) insecure.push(message.text());
      });
      const response = await page.goto(`https://status.acme.test:${caddy.httpsPort}/`);
      expect(response?.status()).toBe(200);
      await page.waitForLoadState('networkidle');
      await expect(page.getByRole('heading', { level: 1 })).toContainText('Acme Cloud Status');
      expect(insecure).toEqual([]);
      const images = await page.locator('img').evaluateAll((nodes) => nodes.map((node) => (node as HTMLImageElement).src));
      for (const src of images) expect(src).toMatch(/^(https:|data:)/);
    } finally {
      await browser.close();
    }
  });
});

test.describe('one or two domains through nginx with certbot\'s certificate', () => {
  test.describe.configure({ mode: 'serial', timeout: 60_000 });
  let porchlight: PorchlightProcess;
  let nginx: RunningNginx;
  let certificate: string;
  let httpPort: number;
  let httpsPort: number;

  test.beforeAll(async () => {
    porchlight = await startPorchlightProcess({ SITE_PUBLIC_URL: `https://${STATUS_HOST}` });
    // A certificate for both names, as certbot would make (self-signed here: no ACME server).
    const dir = await mkdtemp(path.join(tmpdir(), 'porchlight-certbot-'));
    await promisify(execFile)('openssl', [
      'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
      '-subj', `/CN=${STATUS_HOST}`, '-addext', `subjectAltName=DNS:${STATUS_HOST},DNS:status.acme.test`,
      '-keyout', path.join(dir, 'privkey.pem'), '-out', path.join(dir, 'fullchain.pem'),
    ]);
    certificate = await readFile(path.join(dir, 'fullchain.pem'), 'utf8');
    [httpPort, httpsPort] = [await freePort(), await freePort()];
    const published = await readFile(path.join(import.meta.dirname, '../../docs/custom-domains.nginx.conf'), 'utf8');
    const servers = published
      .replaceAll('/etc/letsencrypt/live/status.example.com', dir)
      .replaceAll('/var/www/certbot', dir)
      .replaceAll('status.example.com', STATUS_HOST)
      .replaceAll('status.acme.com', 'status.acme.test')
      .replaceAll('listen 80;', `listen 127.0.0.1:${httpPort};`)
      .replaceAll('listen 443 ssl http2;', `listen 127.0.0.1:${httpsPort} ssl http2;`)
      .replaceAll('http://127.0.0.1:4321', porchlight.siteUrl);
    nginx = await runNginx(servers, httpPort);
  });

  test.afterAll(async () => {
    await nginx?.stop();
    await porchlight?.stop();
  });

  test('serves the custom domain\'s page and the main host over HTTPS, with HSTS', async () => {
    const page = await httpsGet('status.acme.test', httpsPort, certificate);
    expect(page.status).toBe(200);
    expect(page.body).toContain('Acme Cloud Status');
    expect(page.headers['strict-transport-security']).toBe('max-age=31536000');
    const status = JSON.parse((await httpsGet('status.acme.test', httpsPort, certificate, '/api/v2/status.json')).body) as { page: { url: string } };
    expect(status.page.url).toBe('https://status.acme.test/');
    expect((await httpsGet(STATUS_HOST, httpsPort, certificate, '/acme/')).status).toBe(200);
  });

  test('redirects plain HTTP to HTTPS', async () => {
    const response = await request(`http://127.0.0.1:${httpPort}/history/`, { headers: { host: 'status.acme.test' } });
    await response.body.dump();
    expect(response.statusCode).toBe(308);
    expect(response.headers.location).toBe('https://status.acme.test/history/');
  });
});
