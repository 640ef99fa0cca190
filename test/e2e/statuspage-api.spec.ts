/**
 * The Statuspage-compatible JSON against the real server and the embedded API, read by a real
 * Statuspage client library (statuspage.io, axios underneath) on the slug URL and on the page's
 * custom domain, plus the HTTP behaviour it shares with the HTML page.
 */
import dns from 'node:dns';
import http from 'node:http';
import { Statuspage, type Component, type Incident, type Summary } from 'statuspage.io';
import type { Incident as ApiIncident } from '../../src/contract/index.ts';
import { PAGE_OUTPUTS } from '../../src/site/view/page-outputs.ts';
import { test, expect } from './fixtures.ts';
import { apiFor, demoPage } from './support/api.ts';
import { startApiProxy } from './support/api-proxy.ts';
import { startPorchlightProcess, type PorchlightProcess } from './support/porchlight-process.ts';

const DOMAIN = 'status.acme.test';
const JSON_TYPE = 'application/json; charset=utf-8';
const jsonPaths = Object.values(PAGE_OUTPUTS).filter((path) => path.startsWith('api/v2/'));

/** Resolves the page's custom domain to this machine for Node's HTTP clients, as a DNS record would. */
function resolveDomainLocally(): () => void {
  const original = http.globalAgent;
  const lookup: typeof dns.lookup = ((hostname: string, options: dns.LookupOptions, callback: (...args: unknown[]) => void) =>
    dns.lookup(hostname.toLowerCase() === DOMAIN ? '127.0.0.1' : hostname, options, callback as never)) as typeof dns.lookup;
  http.globalAgent = new http.Agent({ lookup });
  return () => {
    http.globalAgent.destroy();
    http.globalAgent = original;
  };
}

function client(baseUrl: string): Statuspage {
  const statuspage = new Statuspage('porchlight');
  statuspage.setApiUrl(baseUrl);
  return statuspage;
}

/** The page's incidents as the API has them: those affecting one of its linked monitors. */
async function pageIncidents(porchlight: PorchlightProcess): Promise<ApiIncident[]> {
  const api = apiFor(porchlight);
  try {
    const page = await demoPage(api);
    const linked = new Set(page.monitors.map((link) => link.monitorId));
    const all: ApiIncident[] = [];
    for await (const incident of api.incidents.listAll()) if (incident.monitors.some((affected) => linked.has(affected.monitor.id))) all.push(incident);
    return all;
  } finally {
    await api.close();
  }
}

const bannerOf = (html: string) => /<title>Acme Cloud Status: ([^<]+)<\/title>/.exec(html)?.[1];
const withoutTimes = (html: string) => html.replace(/<time[^>]*>[^<]*<\/time>/g, '<time/>');

test.describe('Statuspage JSON read by a Statuspage client', () => {
  test('summary, status, components and incidents on the slug URL agree with the API and the HTML page', async ({ request, porchlight }) => {
    const statuspage = client(`${porchlight.siteUrl}/acme`);
    const api = apiFor(porchlight);
    const page = await demoPage(api);
    await api.close();

    const components: { components: Component[] } = await statuspage.api.getComponents();
    const links = [...page.monitors].sort((a, b) => (a.sortOrder ?? Infinity) - (b.sortOrder ?? Infinity));
    expect(components.components.map((component) => component.id)).toEqual(links.map((link) => link.monitorId));
    expect(components.components.map((component) => component.name)).toEqual(links.map((link) => link.displayName ?? link.monitor?.name));
    expect(components.components.map((component) => component.position)).toEqual(links.map((_, index) => index + 1));
    for (const component of components.components) {
      expect(['operational', 'degraded_performance', 'partial_outage', 'major_outage', 'under_maintenance']).toContain(component.status);
    }

    // The demo engine checks every second: ask until the banner and the JSON fall in one snapshot.
    await expect(async () => {
      const status = await statuspage.api.getStatus();
      const html = await (await request.get(`${porchlight.siteUrl}/acme`)).text();
      expect(status.status.description).toBe(bannerOf(html));
      expect(['none', 'minor', 'major', 'critical', 'maintenance']).toContain(status.status.indicator);
    }).toPass({ timeout: 10_000 });

    // Incidents come and go (auto-incidents, other tests): compare until both sides are one moment.
    await expect(async () => {
      const incidents = await pageIncidents(porchlight);
      const all: { incidents: Incident[] } = await statuspage.api.incidents.getAll();
      expect(new Set(all.incidents.map((incident) => incident.id))).toEqual(new Set(incidents.map((incident) => incident.id)));
      const started = all.incidents.map((incident) => Date.parse((incident as Incident & { started_at: string }).started_at));
      expect(started).toEqual([...started].sort((a, b) => b - a));
      for (const incident of all.incidents) {
        expect(incident.shortlink).toBe(`${porchlight.siteUrl}/acme/incidents/${incident.id}/`);
        const times = incident.incident_updates.map((update) => Date.parse(update.created_at));
        expect(times).toEqual([...times].sort((a, b) => b - a));
      }

      const active = incidents.filter((incident) => incident.status !== 'resolved').map((incident) => incident.id).sort();
      const unresolved = await statuspage.api.incidents.getUnresolved();
      expect(unresolved.incidents.map((incident) => incident.id).sort()).toEqual(active);
      const summary: Summary = await statuspage.api.getSummary();
      expect(summary.page).toMatchObject({ name: 'Acme Cloud Status', url: `${porchlight.siteUrl}/acme/`, time_zone: 'Etc/UTC' });
      expect(summary.incidents.map((incident) => incident.id).sort()).toEqual(active);
      expect(summary.components.map((component) => component.id)).toEqual(links.map((link) => link.monitorId));
    }).toPass({ timeout: 10_000 });

    const upcoming = await statuspage.api.scheduledMaintenances.getUpcoming();
    expect(upcoming.scheduled_maintenances.map((window) => window.name)).toContain('Database maintenance');
    for (const window of upcoming.scheduled_maintenances) expect(window.status).toBe('scheduled');
  });

  test('the same documents on the page’s custom domain, with its own absolute links', async ({ porchlight }) => {
    const port = new URL(porchlight.siteUrl).port;
    const restore = resolveDomainLocally();
    try {
      const statuspage = client(`http://${DOMAIN}:${port}`);
      const summary: Summary = await statuspage.api.getSummary();
      expect(summary.page.url).toBe(`http://${DOMAIN}:${port}/`);
      expect(summary.incidents.length).toBeGreaterThan(0);
      for (const incident of summary.incidents) expect(incident.shortlink).toBe(`http://${DOMAIN}:${port}/incidents/${incident.id}/`);
      const slugged: Summary = await client(`${porchlight.siteUrl}/acme`).api.getSummary();
      expect(summary.components.map((component) => component.id)).toEqual(slugged.components.map((component) => component.id));
      expect((await statuspage.api.getStatus()).page.id).toBe(summary.page.id);
      expect((await statuspage.api.incidents.getAll()).incidents.length).toBeGreaterThan(0);
      expect((await statuspage.api.getComponents()).components).toHaveLength(summary.components.length);
      // Only the domain's page lives there.
      await expect(client(`http://${DOMAIN}:${port}/acme`).api.getSummary()).rejects.toThrow(/404/);
    } finally {
      restore();
    }
  });
});

test.describe('Statuspage JSON over HTTP', () => {
  test('every document answers JSON, readable from any origin, cached like the HTML page', async ({ request, porchlight }) => {
    const html = await request.get(`${porchlight.siteUrl}/acme`);
    for (const path of jsonPaths) {
      const response = await request.get(`${porchlight.siteUrl}/acme/${path}`);
      expect(response.status(), path).toBe(200);
      expect(response.headers()['content-type']).toBe(JSON_TYPE);
      expect(response.headers()['access-control-allow-origin']).toBe('*');
      expect(response.headers()['cache-control']).toBe(html.headers()['cache-control']);
      expect((JSON.parse(await response.text()) as { page: { url: string } }).page.url).toBe(`${porchlight.siteUrl}/acme/`);
      const head = await request.head(`${porchlight.siteUrl}/acme/${path}`);
      expect(head.status()).toBe(200);
      expect(head.headers()['content-type']).toBe(JSON_TYPE);
      expect(await head.body()).toHaveLength(0);
    }
  });

  test('a page that is not public, and a document that does not exist, are the HTML 404', async ({ request, porchlight }) => {
    const privateHtml = await request.get(`${porchlight.siteUrl}/internal`);
    expect(privateHtml.status()).toBe(404);
    for (const path of [`/internal/${PAGE_OUTPUTS.summaryJson}`, `/internal/${PAGE_OUTPUTS.incidentsJson}`, '/acme/api/v2/nope.json', '/acme/api/v2/summary', '/no-such-page/api/v2/status.json']) {
      const response = await request.get(`${porchlight.siteUrl}${path}`);
      expect(response.status(), path).toBe(404);
      expect(response.headers()['cache-control']).toBe('no-store');
      expect(response.headers()['access-control-allow-origin']).toBeUndefined();
      const body = await response.text();
      expect(withoutTimes(body)).toBe(withoutTimes(await privateHtml.text()));
      expect(body).not.toContain('Acme Internal');
    }
  });

  test('a strong ETag and 304 to If-None-Match, compressed', async ({ request, porchlight }) => {
    const url = `${porchlight.siteUrl}/acme/${PAGE_OUTPUTS.summaryJson}`;
    // The demo changes every second here: ask until two requests fall in one render.
    await expect(async () => {
      const first = await request.get(url, { headers: { 'accept-encoding': 'gzip' } });
      expect(first.headers()['content-encoding']).toBe('gzip');
      const etag = first.headers()['etag']!;
      expect(etag).toMatch(/^"[^"]+"$/);
      const second = await request.get(url, { headers: { 'accept-encoding': 'gzip', 'if-none-match': etag } });
      expect(second.status()).toBe(304);
      expect(second.headers()['etag']).toBe(etag);
    }).toPass({ timeout: 10_000 });
  });

  test('hostile incident text comes out exactly as written, once', async ({ request, porchlight }) => {
    const hostile = `"quoted" & <script>alert(1)</script> ]]> 🔥 مرحبا \u202Eevil\u202C`;
    const api = apiFor(porchlight);
    const page = await demoPage(api);
    const created = await api.incidents.create({ title: hostile, message: hostile, monitorIds: [page.monitors[0]!.monitorId] });
    try {
      await expect(async () => {
        const response = await request.get(`${porchlight.siteUrl}/acme/${PAGE_OUTPUTS.unresolvedIncidentsJson}`);
        const body = (await response.json()) as { incidents: { id: string; name: string; incident_updates: { body: string }[] }[] };
        const mine = body.incidents.find((incident) => incident.id === created.id);
        expect(mine?.name).toBe(hostile);
        expect(mine?.incident_updates[0]?.body).toBe(hostile);
      }).toPass({ timeout: 10_000 });
    } finally {
      await api.incidents.delete(created.id);
      await api.close();
    }
  });

  test('with the API gone, the JSON keeps answering from the last good data, dated by page.updated_at', async ({ request, porchlight }) => {
    const proxy = await startApiProxy(porchlight.apiUrl);
    const site = await startPorchlightProcess({ STATUS_API_URL: proxy.url, STATUS_API_KEY: porchlight.apiKey, CACHE_FRESH_SECONDS: '1', PAGE_CACHE_SECONDS: '0' });
    const url = `${site.siteUrl}/acme/${PAGE_OUTPUTS.summaryJson}`;
    try {
      const before = (await (await request.get(url)).json()) as Summary;
      proxy.mode = 'down';
      await new Promise((resolve) => setTimeout(resolve, 1_200));
      await expect(async () => {
        const html = await request.get(`${site.siteUrl}/acme`);
        expect(await html.text()).toContain('Live data unavailable');
      }).toPass({ timeout: 10_000 });
      const during = [];
      for (const wait of [0, 1_100]) {
        await new Promise((resolve) => setTimeout(resolve, wait));
        const response = await request.get(url);
        expect(response.status()).toBe(200);
        expect(response.headers()['content-type']).toBe(JSON_TYPE);
        during.push((await response.json()) as Summary);
      }
      // The data stands still while the API is away, and its age shows in page.updated_at.
      const [first, last] = during as [Summary, Summary];
      expect(last.page.updated_at).toBe(first.page.updated_at);
      expect(Date.parse(last.page.updated_at)).toBeGreaterThanOrEqual(Date.parse(before.page.updated_at));
      expect(Date.now() - Date.parse(last.page.updated_at)).toBeGreaterThan(2_000);
      expect(last.components.map((component) => component.id)).toEqual(before.components.map((component) => component.id));
    } finally {
      await site.stop();
      await proxy.close();
    }
  });
});
