/** The typed client, pointed at the API a running Porchlight uses, with its key. */
import { createClient, type ApiClient } from '../../../src/api/index.ts';
import { expect } from '@playwright/test';
import { request } from 'undici';
import type { PorchlightProcess } from './porchlight-process.ts';

export function apiFor(porchlight: PorchlightProcess): ApiClient {
  return createClient({ baseUrl: porchlight.apiUrl, apiKey: porchlight.apiKey, maxRetries: 0 });
}

export async function demoPage(api: ApiClient, slug = 'acme') {
  for await (const page of api.statusPages.listAll()) if (page.slug === slug) return page;
  throw new Error(`no status page ${slug}`);
}

/**
 * Mails link to the demo page's custom domain, which a test browser cannot reach: clears it, so the
 * page is served (and linked) by slug, and waits until the site and its subscriptions thread have
 * loaded the change (the old domain then answers 404).
 */
export async function serveDemoPageBySlug(porchlight: PorchlightProcess): Promise<void> {
  const api = apiFor(porchlight);
  try {
    await api.statusPages.update((await demoPage(api)).id, { customDomain: null });
    await expect.poll(async () => (await request(`${porchlight.siteUrl}/subscribe/manage`, { headers: { host: 'status.acme.test' } })).statusCode, { timeout: 15_000 }).toBe(404);
  } finally {
    await api.close();
  }
}
