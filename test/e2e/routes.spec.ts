import { test, expect } from './fixtures.ts';
import { apiFor, demoPage } from './support/api.ts';

test.describe('routes on the main host', () => {
  test('the index goes straight to the only public page', async ({ page }) => {
    // Other tests add pages for a while; once they are gone the index redirects again.
    await expect(async () => {
      await page.goto('/');
      await expect(page).toHaveURL(/\/acme\/$/, { timeout: 500 });
    }).toPass({ timeout: 10_000 });
  });

  test('an incident has a permalink with its whole timeline', async ({ page, porchlight }) => {
    const api = apiFor(porchlight);
    const [active] = (await api.incidents.list()).data.filter((incident) => incident.status !== 'resolved');
    await page.goto(`/acme/incidents/${active!.id}`);
    await expect(page.getByRole('heading', { level: 1, name: active!.title })).toBeVisible();
    await expect(page.getByRole('list', { name: /updates/i }).locator('time[datetime]')).toHaveCount(active!.updates.length);
    await api.close();
  });

  test('history lists past incidents month by month, newest first', async ({ page }) => {
    await page.goto('/acme/history');
    await expect(page.getByRole('heading', { level: 1, name: 'Incident history' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Elevated API latency', exact: true }).first()).toBeVisible();
    const older = page.getByRole('link', { name: /October 2026|September 2026/ });
    await older.first().click();
    await expect(page).toHaveURL(/\/acme\/history\/\d{4}-\d{2}\/$/);
    await expect(page.getByRole('link', { name: 'Database outage', exact: true }).first()).toBeVisible();
  });

  test('the old ?month= history address redirects to the month\'s own path', async ({ page, request }) => {
    const answer = await request.get('/acme/history?month=2026-10&utm_source=mail', { maxRedirects: 0 });
    expect(answer.status()).toBe(301);
    expect(answer.headers().location).toBe('/acme/history/2026-10/');
    expect(answer.headers()['cache-control']).toBe('no-store');
    await page.goto('/acme/history?month=2026-10');
    await expect(page).toHaveURL(/\/acme\/history\/2026-10\/$/);
    await expect(page.getByRole('heading', { level: 2, name: 'October 2026' })).toBeVisible();
  });

  test('unknown slugs, private pages and foreign incidents are the same branded 404', async ({ page, request }) => {
    const unknown = await request.get('/no-such-page');
    const privatePage = await request.get('/internal');
    expect(unknown.status()).toBe(404);
    expect(privatePage.status()).toBe(404);
    // Byte for byte: no page carries the time it was rendered or its data was fetched.
    expect(await privatePage.text()).toBe(await unknown.text());
    expect(await privatePage.text()).not.toContain('Acme Internal');
    expect((await request.get('/acme/incidents/inc_nope')).status()).toBe(404);
    // A monitor's days: found (and cacheable) only for a monitor the page lists.
    const days = (await (await request.get('/acme')).text()).match(/href="(\/acme\/components\/[^"/]+\/)"/)?.[1];
    const found = await request.get(days!);
    expect(found.status()).toBe(200);
    expect(found.headers()['cache-control']).toMatch(/^public/);
    const foreign = await request.get('/acme/components/mon_nope/');
    expect(foreign.status()).toBe(404);
    expect(foreign.headers()['cache-control']).toBe('no-store');
    expect((await request.get(days!.replace('/acme/', '/internal/'))).status()).toBe(404);
    expect((await request.get('/acme/history?month=2026-13')).status()).toBe(404);
    expect((await request.get('/acme/history/2026-13/')).status()).toBe(404);
    await page.goto('/no-such-page');
    await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
  });

  test("the static exporter's index and base path are not for visitors: the front never forwards its headers", async ({ request }) => {
    const internal = { 'x-porchlight-export': '1', 'x-porchlight-base-path': '/evil' };
    expect((await request.get('/porchlight-export.json', { headers: internal })).status()).toBe(404);
    const page = await (await request.get('/acme/', { headers: internal })).text();
    expect(page).toContain('href="/acme/history/"');
    expect(page).not.toContain('/evil');
  });

  test('liveness answers without touching the API', async ({ request }) => {
    const response = await request.get('/healthz');
    expect(response.status()).toBe(200);
    expect(response.headers()['cache-control']).toBe('no-store');
  });

  test('every answer carries the security headers, and pages a strict CSP', async ({ request }) => {
    for (const path of ['/acme', '/no-such-page']) {
      const headers = (await request.get(path)).headers();
      expect(headers['x-content-type-options']).toBe('nosniff');
      expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      expect(headers['content-security-policy']).toMatch(/default-src 'none'/);
      expect(headers['content-security-policy']).toMatch(/script-src 'sha256-[^']+'( 'sha256-[^']+')*(;|$)/);
      expect(headers['content-security-policy']).not.toContain('unsafe-inline');
    }
  });

  test('the API key never reaches the browser', async ({ request, porchlight }) => {
    for (const path of ['/acme', '/acme/history', '/no-such-page']) {
      expect(await (await request.get(path)).text()).not.toContain(porchlight.apiKey);
    }
  });

  test('an index lists every public page when there are several', async ({ page, porchlight }) => {
    const api = apiFor(porchlight);
    const acme = await demoPage(api);
    const second = await api.statusPages.create({ name: 'Acme Labs', slug: 'labs', monitors: acme.monitors.slice(0, 1).map((link) => ({ monitorId: link.monitorId })) });
    try {
      await expect(async () => {
        await page.goto('/');
        await expect(page.getByRole('link', { name: /Acme Labs/ })).toBeVisible({ timeout: 500 });
      }).toPass({ timeout: 10_000 });
      await expect(page.getByRole('link', { name: /Acme Cloud Status/ })).toBeVisible();
      await expect(page.getByText('Acme Internal')).toHaveCount(0);
    } finally {
      await api.statusPages.delete(second.id);
      await api.close();
    }
  });
});

test.describe('odd requests against the real server', () => {
  test('pages name their charset; TRACE, DELETE and OPTIONS get plain answers and leave no stack trace', async ({ request, porchlight }) => {
    const page = await request.get('/acme');
    expect(page.headers()['content-type']).toBe('text/html; charset=utf-8');
    const before = porchlight.output.length;
    for (const method of ['TRACE', 'DELETE', 'PUT', 'PATCH']) {
      const answer = await request.fetch('/acme', { method });
      expect(answer.status()).toBe(405);
      expect(answer.headers().allow).toBe('GET, HEAD, OPTIONS');
    }
    const options = await request.fetch('/acme', { method: 'OPTIONS' });
    expect(options.status()).toBe(204);
    expect(await options.text()).toBe('');
    expect(porchlight.output.slice(before).filter((line) => /error|at /i.test(line))).toEqual([]);
  });
});
