/** The typed client, pointed at the API a running Porchlight uses, with its key. */
import { createClient, type ApiClient } from '../../../src/api/index.ts';
import type { PorchlightProcess } from './porchlight-process.ts';

export function apiFor(porchlight: PorchlightProcess): ApiClient {
  return createClient({ baseUrl: porchlight.apiUrl, apiKey: porchlight.apiKey, maxRetries: 0 });
}

export async function demoPage(api: ApiClient, slug = 'acme') {
  for await (const page of api.statusPages.listAll()) if (page.slug === slug) return page;
  throw new Error(`no status page ${slug}`);
}
