/**
 * Every output of one status page, and the check that a hidden page answers each exactly as a
 * page that never existed (status, type and bytes), on the main host and on its custom domain,
 * and that the sitemap and the TLS gate no longer name it.
 */
import { request } from 'undici';
import { expect } from '@playwright/test';

export interface Answer {
  status: number;
  type: string;
  body: string;
}

export async function getFrom(siteUrl: string, path: string, host?: string): Promise<Answer> {
  const response = await request(`${siteUrl}${path}`, host ? { headers: { host } } : {});
  const body = Buffer.from(await response.body.arrayBuffer()).toString('latin1');
  return { status: response.statusCode, type: String(response.headers['content-type'] ?? ''), body };
}

export async function tlsAllowed(siteUrl: string, name: string): Promise<number> {
  return (await request(`${siteUrl}/_porchlight/tls-allowed?domain=${encodeURIComponent(name)}`)).statusCode;
}

/** Every output of a page, below its slug (the main host) or at the root of its domain. */
export function pageOutputs(monitorId: string): string[] {
  return [
    '',
    'history/',
    'history.rss',
    'history.atom',
    'maintenance.ics',
    'badge.svg',
    `components/${monitorId}/`,
    `components/${monitorId}/badge.svg`,
    'widget',
    'card.png',
    'favicon.svg',
    'favicon.png',
    'api/v2/summary.json',
    'api/v2/status.json',
    'api/v2/incidents.json',
  ];
}

const NEVER_SLUG = 'never-existed-page';
const NEVER_DOMAIN = 'never.example.test';

/** Each output answered once (the first request after the change), compared with a page that never existed. */
export async function expectGoneEverywhere(siteUrl: string, page: { slug: string; domain: string; monitorId: string }): Promise<void> {
  for (const output of pageOutputs(page.monitorId)) {
    const hidden = await getFrom(siteUrl, `/${page.slug}/${output}`);
    const never = await getFrom(siteUrl, `/${NEVER_SLUG}/${output}`);
    expect(hidden.status, output).toBe(404);
    expect(hidden, output).toEqual(never);
  }
  for (const output of ['', 'history.rss', 'badge.svg', 'api/v2/status.json']) {
    expect(await getFrom(siteUrl, `/${output}`, page.domain), `${page.domain}/${output}`).toEqual(await getFrom(siteUrl, `/${output}`, NEVER_DOMAIN));
  }
  expect((await getFrom(siteUrl, '/sitemap.xml')).body).not.toContain(`/${page.slug}/`);
  expect(await tlsAllowed(siteUrl, page.domain)).toBe(404);
}

/** Asks for every output twice (the second is answered from the front cache's stored bytes). */
export async function visitAll(siteUrl: string, page: { slug: string; domain: string; monitorId: string }): Promise<void> {
  for (const output of pageOutputs(page.monitorId)) {
    expect((await getFrom(siteUrl, `/${page.slug}/${output}`)).status, output).toBe(200);
    await getFrom(siteUrl, `/${page.slug}/${output}`);
  }
  await getFrom(siteUrl, '/', page.domain);
  await getFrom(siteUrl, '/', page.domain);
  await getFrom(siteUrl, '/sitemap.xml');
}
