import { test, expect } from './fixtures.ts';
import { request } from 'undici';
import { chromiumArgs, chromiumPath } from './support/chromium.ts';
import { startPorchlightProcess } from './support/porchlight-process.ts';

// The browser resolves the page's custom domain to this machine, so requests carry that Host.
test.use({ launchOptions: { executablePath: chromiumPath, args: [...chromiumArgs, '--host-resolver-rules=MAP status.acme.test 127.0.0.1, MAP other.example 127.0.0.1'] } });

test.describe('a page on its custom domain', () => {
  test('is served at the root, with links that have no slug prefix', async ({ page, porchlight }) => {
    const port = new URL(porchlight.siteUrl).port;
    await page.goto(`http://status.acme.test:${port}/`);
    await expect(page).toHaveTitle(/Acme Cloud Status/);
    await expect(page.getByRole('link', { name: 'Incident history' })).toHaveAttribute('href', '/history/');
    await page.getByRole('link', { name: 'Incident history' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Incident history' })).toBeVisible();
    const incident = page.getByRole('link', { name: 'Elevated API latency', exact: true }).first();
    await expect(incident).toHaveAttribute('href', /^\/incidents\//);
  });

  test('matches the host without regard to case, and offers no other page', async ({ page, request, porchlight }) => {
    const port = new URL(porchlight.siteUrl).port;
    await page.goto(`http://STATUS.Acme.TEST:${port}/`);
    await expect(page).toHaveTitle(/Acme Cloud Status/);
    const response = await page.goto(`http://status.acme.test:${port}/internal`);
    expect(response?.status()).toBe(404);
    const slugged = await page.goto(`http://status.acme.test:${port}/acme`);
    expect(slugged?.status()).toBe(404);
    // A forwarded host is never trusted to pick a page.
    const spoofed = await request.get(`${porchlight.siteUrl}/`, { headers: { 'x-forwarded-host': 'status.acme.test' }, maxRedirects: 0 });
    expect(spoofed.status()).toBe(302);
  });

  test('an unknown host gets the site index', async ({ page, porchlight }) => {
    const port = new URL(porchlight.siteUrl).port;
    await page.goto(`http://other.example:${port}/`);
    await expect(page).toHaveURL(new RegExp(`other.example:${port}/acme/$`));
  });
});

test.describe('with SITE_PUBLIC_URL set', () => {
  test('absolute links name the public address whatever Host a client sends, and a custom domain its own (https, no port)', async ({ porchlight }) => {
    const site = await startPorchlightProcess({ STATUS_API_URL: porchlight.apiUrl, STATUS_API_KEY: porchlight.apiKey, SITE_PUBLIC_URL: 'https://status.example.test' });
    try {
      const statusOf = async (host: string, path: string) => {
        const response = await request(`${site.siteUrl}${path}`, { headers: { host } });
        return (await response.body.json()) as { page: { url: string } };
      };
      // Until the first data has told the front server the custom domains, then for good.
      await expect.poll(async () => (await statusOf('invented-name.test', '/acme/api/v2/status.json')).page.url).toBe('https://status.example.test/acme/');
      expect((await statusOf('another-invented.test:8443', '/acme/api/v2/status.json')).page.url).toBe('https://status.example.test/acme/');
      expect((await statusOf('status.acme.test:4321', '/api/v2/status.json')).page.url).toBe('https://status.acme.test/');
    } finally {
      await site.stop();
    }
  });
});
