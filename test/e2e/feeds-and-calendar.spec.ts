/**
 * The Atom and RSS feeds and the maintenance calendar of a page, read from a real running
 * Porchlight (site + embedded API) by real consumers: feedsmith reads the feeds, saxes checks
 * the XML is well-formed, Chromium renders entry HTML, ical.js reads the calendar.
 * Its own Porchlight, with the scheduler off, so nothing but these tests changes the data.
 */
import { request as httpRequest } from 'node:http';
import { test as base, expect, type Page } from '@playwright/test';
import { parseAtomFeed, parseRssFeed } from 'feedsmith';
import ICAL from 'ical.js';
import { SaxesParser } from 'saxes';
import type { ApiClient } from '../../src/api/index.ts';
import type { MaintenanceWindow, StatusPage } from '../../src/contract/index.ts';
import { PAGE_OUTPUTS } from '../../src/site/view/page-outputs.ts';
import { apiFor, demoPage } from './support/api.ts';
import { startPorchlightProcess, type PorchlightProcess } from './support/porchlight-process.ts';

interface Fetched {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** GET (or HEAD) with an explicit Host header, as a custom domain's visitors send it. */
function get(url: string, options: { host?: string; method?: 'GET' | 'HEAD' } = {}): Promise<Fetched> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method: options.method ?? 'GET', headers: options.host ? { host: options.host } : {} }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') }));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end();
  });
}

function assertWellFormed(xml: string): void {
  const parser = new SaxesParser({ xmlns: true });
  parser.on('error', (error) => {
    throw error;
  });
  parser.write(xml).close();
}

const OUTPUTS = [
  { path: PAGE_OUTPUTS.atomFeed, type: 'application/atom+xml; charset=utf-8' },
  { path: PAGE_OUTPUTS.rssFeed, type: 'application/rss+xml; charset=utf-8' },
  { path: PAGE_OUTPUTS.maintenanceCalendar, type: 'text/calendar; charset=utf-8' },
] as const;

/** The text a browser shows for a piece of feed HTML, and whether anything in it ran or loaded. */
async function renderHtml(page: Page, html: string): Promise<{ text: string; elements: string[]; ran: boolean }> {
  await page.setContent(`<!DOCTYPE html><body><div id="entry"></div></body>`);
  return page.evaluate((markup) => {
    const entry = document.getElementById('entry')!;
    entry.innerHTML = markup;
    const elements = [...entry.querySelectorAll('*')].map((element) => element.localName);
    return { text: entry.innerText, elements, ran: (window as { pwned?: unknown }).pwned !== undefined };
  }, html);
}

const HOSTILE_TITLE = `Tom & "Jerry" <script>window.pwned=1</script> ]]> &amp; 😀 שלום עולם`;
const HOSTILE_MESSAGE = `It's <img src=x onerror="window.pwned=2"> & "worse" ]]> <![CDATA[x]]> 🚀\nمرحبا بالعالم &lt;b&gt;`;
const HOSTILE_PAGE_NAME = `Ops & "Friends" <b>ߦ</b> ]]>`;

const DAY = 86_400_000;
/** A whole-second instant `offsetMs` from now, as the API stores it. */
const isoFromNow = (offsetMs: number) => new Date(Math.floor((Date.now() + offsetMs) / 1000) * 1000).toISOString();

const test = base.extend<object, { porchlight: PorchlightProcess; api: ApiClient; acme: StatusPage }>({
  porchlight: [
    async ({}, use) => {
      const running = await startPorchlightProcess({ SCHEDULER: 'false' });
      await use(running);
      await running.stop();
    },
    { scope: 'worker' },
  ],
  api: [
    async ({ porchlight }, use) => {
      const api = apiFor(porchlight);
      await use(api);
      await api.close();
    },
    { scope: 'worker' },
  ],
  acme: [async ({ api }, use) => use(await demoPage(api)), { scope: 'worker' }],
});

test.describe.configure({ mode: 'serial' });

test('both feeds read by a feed parser on the slug URL and on the custom domain, with the same entry ids', async ({ porchlight, api, acme }) => {
  const port = new URL(porchlight.siteUrl).port;
  const domain = `${acme.customDomain}:${port}`;
  const incidents: { id: string; title: string; startedAt: string }[] = [];
  for await (const incident of api.incidents.listAll()) incidents.push(incident);
  expect(incidents.length).toBeGreaterThan(0);

  const reads = [
    { base: `${porchlight.siteUrl}/acme/`, host: undefined, root: `${porchlight.siteUrl}/acme/` },
    { base: `${porchlight.siteUrl}/`, host: domain, root: `http://${domain}/` },
  ];
  const ids: string[][] = [];
  for (const read of reads) {
    const atomResponse = await get(`${read.base}${PAGE_OUTPUTS.atomFeed}`, { host: read.host });
    const rssResponse = await get(`${read.base}${PAGE_OUTPUTS.rssFeed}`, { host: read.host });
    expect(atomResponse.status).toBe(200);
    expect(atomResponse.headers['content-type']).toBe('application/atom+xml; charset=utf-8');
    expect(rssResponse.headers['content-type']).toBe('application/rss+xml; charset=utf-8');
    expect(atomResponse.headers['cache-control']).toMatch(/^public, /);

    const atom = parseAtomFeed(atomResponse.body);
    const rss = parseRssFeed(rssResponse.body);
    expect(atom.title?.value).toBe(`${acme.name} status history`);
    expect(atom.links).toEqual(expect.arrayContaining([expect.objectContaining({ rel: 'self', href: `${read.root}${PAGE_OUTPUTS.atomFeed}` })]));
    expect(rss.atom?.links?.[0]?.href).toBe(`${read.root}${PAGE_OUTPUTS.rssFeed}`);

    const entries = atom.entries ?? [];
    const items = rss.items ?? [];
    expect(entries).toHaveLength(incidents.length);
    expect(items).toHaveLength(incidents.length);
    for (const [index, entry] of entries.entries()) {
      const incident = incidents.find((candidate) => entry.links?.[0]?.href === `${read.root}incidents/${candidate.id}/`);
      expect(incident, `entry ${entry.links?.[0]?.href} links to an incident of the API`).toBeDefined();
      expect(entry.title?.value).toMatch(new RegExp(`^${incident!.title} \\((Investigating|Identified|Monitoring|Resolved)\\)$`));
      expect(items[index]?.guid?.value).toBe(entry.id);
      expect(items[index]?.link).toBe(entry.links?.[0]?.href);
      expect(Date.parse(entry.published ?? '')).toBe(Date.parse(incident!.startedAt));
      // RFC 822 dates have whole seconds.
      expect(Date.parse(items[index]?.pubDate ?? '')).toBe(Math.floor(Date.parse(incident!.startedAt) / 1000) * 1000);
    }
    // Newest first.
    const published = entries.map((entry) => Date.parse(entry.published ?? ''));
    expect([...published].sort((a, b) => b - a)).toEqual(published);
    ids.push(entries.map((entry) => entry.id ?? ''));
  }
  expect(ids[1]).toEqual(ids[0]);
});

test('hostile page and incident text comes out escaped exactly once, and the XML stays well-formed', async ({ porchlight, api, acme, page }) => {
  const link = acme.monitors[0]!;
  const hostilePage = await api.statusPages.create({ name: HOSTILE_PAGE_NAME, slug: 'hostile-feeds', monitors: [{ monitorId: link.monitorId }] });
  const incident = await api.incidents.create({ title: HOSTILE_TITLE, message: HOSTILE_MESSAGE, monitorIds: [link.monitorId], severity: 'critical' });
  try {
    const url = (path: string) => `${porchlight.siteUrl}/hostile-feeds/${path}`;
    let atomXml = '';
    await expect(async () => {
      const response = await get(url(PAGE_OUTPUTS.atomFeed));
      expect(response.status).toBe(200);
      expect(response.body).toContain(incident.id);
      atomXml = response.body;
    }).toPass({ timeout: 15_000 });
    const rssXml = (await get(url(PAGE_OUTPUTS.rssFeed))).body;
    assertWellFormed(atomXml);
    assertWellFormed(rssXml);

    const atom = parseAtomFeed(atomXml);
    const rss = parseRssFeed(rssXml);
    expect(atom.title?.value).toBe(`${HOSTILE_PAGE_NAME} status history`);
    expect(rss.title).toBe(`${HOSTILE_PAGE_NAME} status history`);
    const entry = atom.entries?.find((candidate) => candidate.links?.[0]?.href?.endsWith(`/incidents/${incident.id}/`));
    const item = rss.items?.find((candidate) => candidate.link?.endsWith(`/incidents/${incident.id}/`));
    expect(entry?.title?.value).toBe(`${HOSTILE_TITLE} (Investigating)`);
    expect(item?.title).toBe(`${HOSTILE_TITLE} (Investigating)`);
    expect(entry?.content?.type).toBe('html');

    for (const html of [entry?.content?.value ?? '', item?.description ?? '']) {
      const rendered = await renderHtml(page, html);
      expect(rendered.ran).toBe(false);
      // Only the feed's own markup became elements: the message's tags stayed text.
      expect(new Set(rendered.elements)).toEqual(new Set(['p', 'strong', 'br']));
      expect(rendered.text).toContain('Impact: Critical. Status: Investigating.');
      expect(rendered.text.endsWith(HOSTILE_MESSAGE)).toBe(true);
    }
  } finally {
    await api.incidents.delete(incident.id);
    await api.statusPages.delete(hostilePage.id);
  }
});

test('the calendar has the API windows at the API times: scheduled, started, completed and cancelled', async ({ porchlight, api, acme }) => {
  const monitorIds = [acme.monitors[0]!.monitorId];
  const create = (title: string, startOffset: number, hours: number) =>
    api.maintenance.create({ title, description: `${title}; with, commas\nand a second line`, scheduledStart: isoFromNow(startOffset), scheduledEnd: isoFromNow(startOffset + hours * 3_600_000), monitorIds });
  const scheduled = await create('Feeds test: scheduled', 2 * DAY, 2);
  const started = await create('Feeds test: started', -600_000, 1);
  await api.maintenance.start(started.id);
  const completed = await create('Feeds test: completed', -DAY, 1);
  await api.maintenance.start(completed.id);
  await api.maintenance.complete(completed.id);
  const cancelled = await create('Feeds test: cancelled', 3 * DAY, 1);
  await api.maintenance.cancel(cancelled.id);
  const windows: MaintenanceWindow[] = await Promise.all([scheduled, started, completed, cancelled].map((window) => api.maintenance.get(window.id)));
  expect(windows.map((window) => window.status)).toEqual(['scheduled', 'in_progress', 'completed', 'cancelled']);

  const port = new URL(porchlight.siteUrl).port;
  let text = '';
  await expect(async () => {
    const response = await get(`${porchlight.siteUrl}/acme/${PAGE_OUTPUTS.maintenanceCalendar}`);
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(response.body).toContain('Feeds test: cancelled');
    text = response.body;
  }).toPass({ timeout: 15_000 });

  expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
  for (const line of text.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);

  const calendar = new ICAL.Component(ICAL.parse(text));
  expect(calendar.getFirstPropertyValue('x-wr-calname')).toBe(`${acme.name} maintenance`);
  const events = calendar.getAllSubcomponents('vevent').map((vevent) => ({ vevent, event: new ICAL.Event(vevent) }));
  const expected = [
    [windows[0]!, 'Feeds test: scheduled', 'CONFIRMED'],
    [windows[1]!, 'Feeds test: started', 'CONFIRMED'],
    [windows[2]!, 'Feeds test: completed', 'CONFIRMED'],
    [windows[3]!, 'Cancelled: Feeds test: cancelled', 'CANCELLED'],
  ] as const;
  for (const [window, summary, status] of expected) {
    const found = events.find(({ event }) => event.summary === summary);
    expect(found, summary).toBeDefined();
    expect(found!.event.startDate.toJSDate().toISOString()).toBe(new Date(window.scheduledStart).toISOString());
    expect(found!.event.endDate.toJSDate().toISOString()).toBe(new Date(window.scheduledEnd).toISOString());
    expect(found!.vevent.getFirstPropertyValue('status')).toBe(status);
    expect(found!.event.description).toContain(`${window.title}; with, commas\nand a second line`);
    expect(found!.event.description).toContain(`Affected: ${acme.monitors[0]!.displayName}`);
  }
  // Changed windows (started, completed, cancelled) have a higher SEQUENCE than the untouched one.
  const sequence = (summary: string) => Number(events.find(({ event }) => event.summary === summary)?.vevent.getFirstPropertyValue('sequence'));
  expect(sequence('Feeds test: scheduled')).toBe(0);
  for (const changed of ['Feeds test: started', 'Feeds test: completed', 'Cancelled: Feeds test: cancelled']) expect(sequence(changed)).toBeGreaterThan(0);

  // The same UIDs on the custom domain.
  const onDomain = await get(`${porchlight.siteUrl}/${PAGE_OUTPUTS.maintenanceCalendar}`, { host: `${acme.customDomain}:${port}` });
  const uids = (ics: string) => new ICAL.Component(ICAL.parse(ics)).getAllSubcomponents('vevent').map((vevent) => vevent.getFirstPropertyValue('uid'));
  expect(uids(onDomain.body)).toEqual(uids(text));
  expect(onDomain.body).toContain(`URL:http://${acme.customDomain}:${port}/\r\n`);
});

test('a page that is not public: every feed and the calendar are the same 404 as its HTML page', async ({ porchlight }) => {
  await expect(async () => {
    const [html, ...outputs] = await Promise.all([
      get(`${porchlight.siteUrl}/internal`),
      ...OUTPUTS.map((output) => get(`${porchlight.siteUrl}/internal/${output.path}`)),
      ...OUTPUTS.map((output) => get(`${porchlight.siteUrl}/no-such-page/${output.path}`)),
    ]);
    expect(html!.status).toBe(404);
    for (const output of outputs) {
      expect(output.status).toBe(404);
      expect(output.headers['content-type']).toBe(html!.headers['content-type']);
      expect(output.headers['cache-control']).toBe(html!.headers['cache-control']);
      expect(output.body).toBe(html!.body);
    }
  }).toPass({ timeout: 10_000 });
});

test('unchanged data gives byte-identical feeds and calendar across a refresh; HEAD answers the same headers', async ({ porchlight }) => {
  const refreshes = () => porchlight.output.filter((line) => line.includes('refreshed status data')).length;
  // Wait until the site has fetched the data again (CACHE_FRESH_SECONDS is 1 here), and then some,
  // so the outputs are rendered from a new snapshot.
  const refreshedTwice = async () => {
    const seen = refreshes();
    await expect(async () => {
      await get(`${porchlight.siteUrl}/acme/`);
      expect(refreshes()).toBeGreaterThan(seen + 1);
    }).toPass({ timeout: 15_000 });
  };
  // First let earlier tests' changes that no push announces (a deleted incident) reach the data.
  await refreshedTwice();
  const before = await Promise.all(OUTPUTS.map((output) => get(`${porchlight.siteUrl}/acme/${output.path}`)));
  await refreshedTwice();
  const after = await Promise.all(OUTPUTS.map((output) => get(`${porchlight.siteUrl}/acme/${output.path}`)));
  for (const [index, output] of OUTPUTS.entries()) {
    expect(before[index]!.status).toBe(200);
    expect(after[index]!.body, output.path).toBe(before[index]!.body);
    expect(before[index]!.headers.etag).toBeDefined();
    expect(after[index]!.headers.etag).toBe(before[index]!.headers.etag);
    const head = await get(`${porchlight.siteUrl}/acme/${output.path}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers['content-type']).toBe(output.type);
    expect(head.body).toBe('');
  }
});
