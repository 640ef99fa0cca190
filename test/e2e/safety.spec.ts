import { test, expect } from './fixtures.ts';
import { apiFor, demoPage } from './support/api.ts';
import { startApiProxy } from './support/api-proxy.ts';
import { startPorchlightProcess } from './support/porchlight-process.ts';
import { statusFirstScript } from '../../src/site/scripts/status-first.ts';

test('owner HTML and CSS cannot run script or inject markup', async ({ page, porchlight }) => {
  const api = apiFor(porchlight);
  const acme = await demoPage(api);
  const hostile = await api.statusPages.create({
    name: 'Hostile',
    slug: 'hostile',
    headerText: '<img src=x onerror="document.body.dataset.pwned=1"><script>document.body.dataset.pwned=2</script><a href="javascript:alert(1)">click</a><b onclick="alert(1)">bold</b>',
    footerText: '<svg onload="alert(1)"></svg><iframe src="https://evil.example"></iframe><p style="background:url(https://evil.example/x)">footer</p>',
    customCss: 'body { outline: 0 } </style><script>document.body.dataset.pwned=3</script><style>',
    monitors: acme.monitors.slice(0, 1).map((link) => ({ monitorId: link.monitorId })),
  });
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  try {
    await expect(async () => {
      const response = await page.goto('/hostile');
      expect(response?.status()).toBe(200);
    }).toPass({ timeout: 10_000 });
    await expect(page.getByText('bold')).toBeVisible();
    await page.getByText('bold').click();
    expect(dialogs).toEqual([]);
    expect(await page.evaluate(() => document.body.dataset.pwned ?? null)).toBeNull();
    // The only script among the page's content is the site's own yield point after the status banner.
    expect(await page.locator('main script, header script, footer script').evaluateAll((scripts) => scripts.map((script) => script.textContent))).toEqual([statusFirstScript.source]);
    expect(await page.locator('header img[src="x"], iframe, svg[onload], [onclick], [onerror], [style]').count()).toBe(0);
    expect(await page.locator('a[href^="javascript"]').count()).toBe(0);
    // The owner CSS stayed one style element (after the site's own): nothing after it became markup.
    expect(await page.locator('head style').count()).toBe(2);
    expect(violations).toEqual([]);
  } finally {
    await api.statusPages.delete(hostile.id);
    await api.close();
  }
});

test('owner CSS with CRLF, lone CR and odd characters is applied: the CSP hash matches what the browser parsed', async ({ page, porchlight }) => {
  const api = apiFor(porchlight);
  const acme = await demoPage(api);
  const odd = await api.statusPages.create({
    name: 'Line ends',
    slug: 'line-ends',
    customCss: 'body {\r\n  outline: 3px solid rgb(1, 2, 3);\r\n}\r.pl-banner::after { content: "\uFEFF\u2028é\uD800"; }\r\n\r\n',
    monitors: acme.monitors.slice(0, 1).map((link) => ({ monitorId: link.monitorId })),
  });
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  try {
    await expect(async () => {
      const response = await page.goto('/line-ends');
      expect(response?.status()).toBe(200);
    }).toPass({ timeout: 10_000 });
    expect(await page.evaluate(() => getComputedStyle(document.body).outlineColor)).toBe('rgb(1, 2, 3)');
    expect(violations).toEqual([]);
  } finally {
    await api.statusPages.delete(odd.id);
    await api.close();
  }
});

test('odd records from the API degrade per item and never break the page', async ({ page, porchlight }) => {
  const proxy = await startApiProxy(porchlight.apiUrl);
  proxy.rewrite = (path, body) => {
    const envelope = body as { data: unknown };
    if (path.startsWith('/api/v1/status-pages') && Array.isArray(envelope.data)) {
      const [first, ...rest] = envelope.data as Record<string, unknown>[];
      return { ...envelope, data: [{ ...first, brandColor: 'red;}body{display:none', logoUrl: 'javascript:alert(1)', surprise: { nested: true } }, ...rest, { id: 42 }] };
    }
    if (path.startsWith('/api/v1/monitors?') && Array.isArray(envelope.data)) {
      const [first, ...rest] = envelope.data as Record<string, unknown>[];
      return { ...envelope, data: [{ ...first, currentStatus: 'exploding' }, ...rest, { name: 'no id' }] };
    }
    if (path.startsWith('/api/v1/incidents') && Array.isArray(envelope.data)) {
      return { ...envelope, data: [...envelope.data, { id: 'broken', title: null }] };
    }
    return body;
  };
  const odd = await startPorchlightProcess({ STATUS_API_URL: proxy.url, STATUS_API_KEY: porchlight.apiKey });
  try {
    const response = await page.goto(`${odd.siteUrl}/acme`);
    expect(response?.status()).toBe(200);
    await expect(page.getByRole('heading', { name: 'Payment processing failures' })).toBeVisible();
    // An invalid brand color is ignored (the theme's own stays), a javascript: logo is dropped.
    const brand = await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--pl-brand').trim());
    expect(brand).not.toContain('red');
    expect(await page.locator('header img').count()).toBe(0);
    await expect(page.locator('body')).toBeVisible();
    // The monitor with an unknown status is shown, and not as operational.
    const website = page.locator('li, article, section').filter({ has: page.getByRole('heading', { name: 'Website', exact: true }) }).last();
    await expect(website).toContainText(/unknown/i);
  } finally {
    await odd.stop();
    await proxy.close();
  }
});
