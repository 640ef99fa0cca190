/**
 * Links that say the status (issue 22), against the real server and embedded API: the tags a chat
 * client reads from each public document, the status card and favicon they point to, and each
 * host's robots.txt and sitemap.xml. Non-public pages appear nowhere.
 */
import { PNG } from 'pngjs';
import { request } from 'undici';
import type { Page } from '@playwright/test';
import { test, expect } from './fixtures.ts';
import { apiFor, demoPage } from './support/api.ts';
import { statusFirstScript } from '../../src/site/scripts/status-first.ts';
import { sha256Source } from '../../src/site/security/csp.ts';

const DOMAIN = 'status.acme.test';

/** The head's preview tags, as a crawler reads them (no script runs in a crawler either). */
async function previewTags(page: Page): Promise<Record<string, string | null>> {
  const meta = (selector: string) => page.locator(`head ${selector}`).getAttribute('content');
  return {
    title: await meta('meta[property="og:title"]'),
    description: await meta('meta[property="og:description"]'),
    url: await meta('meta[property="og:url"]'),
    siteName: await meta('meta[property="og:site_name"]'),
    type: await meta('meta[property="og:type"]'),
    image: await meta('meta[property="og:image"]'),
    twitterCard: await meta('meta[name="twitter:card"]'),
    canonical: await page.locator('head link[rel="canonical"]').getAttribute('href'),
  };
}

async function bytesOf(url: string, headers: Record<string, string> = {}): Promise<{ status: number; type: string; etag: string; body: Buffer }> {
  const response = await request(url, { headers });
  const body = Buffer.from(await response.body.arrayBuffer());
  return { status: response.statusCode, type: String(response.headers['content-type']), etag: String(response.headers.etag), body };
}

async function statusWords(siteUrl: string): Promise<string> {
  const response = await request(`${siteUrl}/acme/api/v2/status.json`);
  return ((await response.body.json()) as { status: { description: string } }).status.description;
}

test('a status page unfurls with its name, status sentence, canonical address and a 1200×630 card', async ({ page, porchlight }) => {
  await page.goto('/acme/');
  const status = await statusWords(porchlight.siteUrl);
  const tags = await previewTags(page);
  expect(tags).toMatchObject({
    url: `${porchlight.siteUrl}/acme/`,
    canonical: `${porchlight.siteUrl}/acme/`,
    siteName: 'Acme Cloud Status',
    type: 'website',
    image: `${porchlight.siteUrl}/acme/card.png`,
    twitterCard: 'summary_large_image',
  });
  expect(tags.title).toBe(`Acme Cloud Status: ${status}`);
  expect(tags.description).toContain(`Current status of Acme Cloud Status: ${status}.`);
  await expect(page.locator('.pl-banner__label')).toHaveText(status);

  const card = await bytesOf(tags.image!);
  expect(card.type).toBe('image/png');
  const png = PNG.sync.read(card.body);
  expect([png.width, png.height]).toEqual([1200, 630]);
  // Cached with the data: the same bytes again, and a 304 for the validator.
  expect((await bytesOf(tags.image!)).body.equals(card.body)).toBe(true);
  expect((await bytesOf(tags.image!, { 'if-none-match': card.etag })).status).toBe(304);

  // The tab's icons, relative like every link of the page, answer with the status's icon.
  const icons = page.locator('head link[rel="icon"]');
  await expect(icons).toHaveCount(2);
  const svgIcon = await bytesOf(new URL((await icons.nth(0).getAttribute('href'))!, page.url()).href);
  expect(svgIcon.type).toBe('image/svg+xml; charset=utf-8');
  const pngIcon = PNG.sync.read((await bytesOf(new URL((await icons.nth(1).getAttribute('href'))!, page.url()).href)).body);
  expect([pngIcon.width, pngIcon.height]).toEqual([32, 32]);
});

test("an incident's permalink describes it with its latest update, and a new incident changes the card and the favicon", async ({ page, porchlight }) => {
  const api = apiFor(porchlight);
  const acme = await demoPage(api);
  const cardBefore = await bytesOf(`${porchlight.siteUrl}/acme/card.png`);
  const iconBefore = await bytesOf(`${porchlight.siteUrl}/acme/favicon.svg`);
  const incident = await api.incidents.create({ monitorIds: [acme.monitors[0]!.monitorId], title: 'Card check <b>bold</b>', message: 'Looking into it.', severity: 'critical' });
  try {
    await api.incidents.update(incident.id, { status: 'identified', message: 'A bad deploy; rolling back now.' });
    await expect.poll(async () => (await page.goto(`/acme/incidents/${incident.id}/`))?.status()).toBe(200);
    await expect.poll(async () => {
      await page.reload();
      return (await previewTags(page)).description;
    }).toBe('Identified: Card check <b>bold</b>. Latest update: A bad deploy; rolling back now.');
    const tags = await previewTags(page);
    expect(tags.url).toBe(`${porchlight.siteUrl}/acme/incidents/${incident.id}/`);
    expect(tags.canonical).toBe(tags.url);
    expect(tags.type).toBe('article');
    expect(tags.image).toBe(`${porchlight.siteUrl}/acme/card.png`);
    // A critical incident is a major outage: the card and the icon follow the data.
    await expect.poll(async () => (await bytesOf(`${porchlight.siteUrl}/acme/card.png`)).body.equals(cardBefore.body), { timeout: 15_000 }).toBe(false);
    const iconAfter = await bytesOf(`${porchlight.siteUrl}/acme/favicon.svg`);
    expect(iconAfter.body.equals(iconBefore.body)).toBe(false);
    expect(PNG.sync.read((await bytesOf(`${porchlight.siteUrl}/acme/card.png`)).body).width).toBe(1200);
  } finally {
    await api.incidents.delete(incident.id).catch(() => undefined);
    await api.close();
  }
});

test('a month of history names its own address; a page that is not public has no tags, card or icon', async ({ page, porchlight }) => {
  await page.goto('/acme/history/');
  const tags = await previewTags(page);
  expect(tags.url).toBe(`${porchlight.siteUrl}/acme/history/`);
  expect(tags.description).toMatch(/^Past incidents of Acme Cloud Status in \w+ \d{4}\.$/);
  expect(tags.image).toBe(`${porchlight.siteUrl}/acme/card.png`);

  const hidden = await page.goto('/internal/');
  expect(hidden?.status()).toBe(404);
  await expect(page.locator('head meta[property^="og:"]')).toHaveCount(0);
  for (const output of ['card.png', 'favicon.svg', 'favicon.png']) expect((await bytesOf(`${porchlight.siteUrl}/internal/${output}`)).status).toBe(404);
});

test('robots.txt and sitemap.xml answer per host: the main host lists its public pages, the custom domain its own', async ({ porchlight }) => {
  const main = await bytesOf(`${porchlight.siteUrl}/sitemap.xml`);
  expect(main.status).toBe(200);
  expect(main.type).toBe('application/xml; charset=utf-8');
  const mainLocs = [...main.body.toString('utf8').matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]!);
  expect(mainLocs[0]).toBe(`${porchlight.siteUrl}/acme/`);
  expect(mainLocs).toContain(`${porchlight.siteUrl}/acme/history/`);
  expect(mainLocs.some((loc) => loc.startsWith(`${porchlight.siteUrl}/acme/incidents/`))).toBe(true);
  expect(mainLocs.some((loc) => loc.includes('/internal'))).toBe(false);
  expect(main.body.toString('utf8')).toMatch(/<lastmod>\d{4}-\d{2}-\d{2}T[\d:.]+Z<\/lastmod>/);

  const robots = (await bytesOf(`${porchlight.siteUrl}/robots.txt`)).body.toString('utf8');
  expect(robots).toContain('Disallow: /acme/widget\n');
  expect(robots).toContain('Disallow: /acme/api/v2/summary.json\n');
  expect(robots).toContain(`Sitemap: ${porchlight.siteUrl}/sitemap.xml`);
  expect(robots).not.toContain('internal');

  const port = new URL(porchlight.siteUrl).port;
  const domainOrigin = `http://${DOMAIN}:${port}`;
  const locsOf = async (host?: string) => [...(await bytesOf(`${porchlight.siteUrl}/sitemap.xml`, host ? { host } : {})).body.toString('utf8').matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]!);
  const domainLocs = await locsOf(`${DOMAIN}:${port}`);
  expect(domainLocs[0]).toBe(`${domainOrigin}/`);
  // The same entries on both hosts. Other tests add and delete incidents on this server meanwhile,
  // so the two are compared when read from the same data.
  await expect.poll(async () => (await locsOf(`${DOMAIN}:${port}`)).length - (await locsOf()).length).toBe(0);
  expect(domainLocs.every((loc) => loc.startsWith(`${domainOrigin}/`) && !loc.includes('/acme/'))).toBe(true);
  const domainRobots = (await bytesOf(`${porchlight.siteUrl}/robots.txt`, { host: `${DOMAIN}:${port}` })).body.toString('utf8');
  expect(domainRobots).toContain('Disallow: /widget\n');
  expect(domainRobots).toContain(`Sitemap: ${domainOrigin}/sitemap.xml`);
  // On its own domain the card sits at the root too.
  expect((await bytesOf(`${porchlight.siteUrl}/card.png`, { host: `${DOMAIN}:${port}` })).type).toBe('image/png');
});

test('a page named <script> with a 200-character incident title unfurls as text and draws its card', async ({ page, porchlight }) => {
  const api = apiFor(porchlight);
  const name = '<script>document.title="pwned"</script> & "Quotes"';
  const title = `<img src=x onerror=alert(1)> ${'Long title '.repeat(17)}`.slice(0, 200);
  const monitor = await api.monitors.create({ name: 'Preview probe', type: 'tcp', host: '127.0.0.1', port: 9, interval: 300, timeout: 2 });
  await api.monitors.update(monitor.id, { active: false });
  const hostile = await api.statusPages.create({ name, slug: 'preview-hostile', monitors: [{ monitorId: monitor.id }] });
  const incident = await api.incidents.create({ monitorIds: [monitor.id], title, message: '</script><b>not bold</b>', severity: 'major' });
  try {
    await expect.poll(async () => (await page.goto('/preview-hostile/'))?.status()).toBe(200);
    await expect.poll(async () => {
      await page.reload();
      return (await previewTags(page)).description;
    }).toContain('Active incident: <img src=x onerror=alert(1)> Long title');
    const tags = await previewTags(page);
    expect(tags.siteName).toBe(name);
    expect(tags.title?.startsWith(`${name}: `)).toBe(true);
    expect(tags.description!.endsWith('…')).toBe(true);
    expect(await page.title()).not.toBe('pwned');
    // The only scripts are the page's own, each allowed by its hash: the yield point after the banner
    // and the enhancement at the end of the body.
    const scripts = await page.locator('script').evaluateAll((elements) => elements.map((script) => script.textContent ?? ''));
    expect(scripts).toHaveLength(2);
    expect(scripts[0]).toBe(statusFirstScript.source);
    const policy = await page.locator('meta[http-equiv="content-security-policy"]').getAttribute('content');
    for (const script of scripts) expect(policy).toContain(sha256Source(script));
    const card = await bytesOf(tags.image!);
    expect(card.status).toBe(200);
    const png = PNG.sync.read(card.body);
    expect([png.width, png.height]).toEqual([1200, 630]);
    // The sitemap follows the data (the front cache may answer its previous bytes once while it re-renders).
    const sitemap = async () => (await bytesOf(`${porchlight.siteUrl}/sitemap.xml`)).body.toString('utf8');
    await expect.poll(sitemap).toContain(`<loc>${porchlight.siteUrl}/preview-hostile/incidents/${incident.id}/</loc>`);
    expect(await sitemap()).toContain(`<loc>${porchlight.siteUrl}/preview-hostile/</loc>`);
  } finally {
    await api.incidents.delete(incident.id).catch(() => undefined);
    await api.statusPages.delete(hostile.id).catch(() => undefined);
    await api.monitors.delete(monitor.id).catch(() => undefined);
    await api.close();
  }
});
