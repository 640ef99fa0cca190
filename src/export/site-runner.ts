/**
 * The site, running in this process exactly as `npm start` runs it (src/server/start.ts): the
 * configured API or the embedded one with the demo, the built Astro site on an internal loopback
 * port. No public listener and no front cache: the exporter is the only client.
 */
import { AuthenticationError, createClient, PermissionDeniedError, RateLimitError, ApiConnectionError } from '../api/index.ts';
import type { LauncherConfig } from '../server/config.ts';
import { resolveApi, startSiteThread } from '../server/start.ts';
import { siteConfigOf } from '../site/running-config.ts';
import { siteClient, type SiteClient } from './site-client.ts';

/** Something the person running the export must fix; its message is the one line printed. */
export class ExportError extends Error {
  override name = 'ExportError';
}

export interface ExportSite {
  client: SiteClient;
  apiUrl: string;
  /** The embedded API (and its demo) is running in this process. */
  embedded: boolean;
  /** Requests this process sent to the API itself (the site counts its own). */
  ownApiRequests: number;
  /** E-mail subscriptions would run on the server but SITE_PUBLIC_URL is unset: pages have no form. */
  subscribeFormLeftOut: boolean;
  close(): Promise<void>;
}

/**
 * One request before anything else, so an unreachable API or a refused key ends the command
 * with a line that says which, instead of a 503 page.
 */
async function checkApi(url: string, key: string, timeoutSeconds: number): Promise<void> {
  const timeoutMs = timeoutSeconds * 1000;
  const client = createClient({ baseUrl: url, apiKey: key, maxRetries: 0, timeouts: { connectMs: timeoutMs, headersMs: timeoutMs, bodyMs: timeoutMs, totalMs: timeoutMs * 2 } });
  try {
    await client.organization.get();
  } catch (error) {
    if (error instanceof AuthenticationError || error instanceof PermissionDeniedError) {
      throw new ExportError(`the API at ${url} refused the key (STATUS_API_KEY): ${error.status}`);
    }
    if (error instanceof RateLimitError) throw new ExportError(`the API at ${url} is rate limiting this key (429); try again later`);
    if (error instanceof ApiConnectionError) throw new ExportError(`cannot reach the API at ${url} (${error.message})`);
    throw new ExportError(`the API at ${url} failed: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    await client.close();
  }
}

export async function startExportSite(config: LauncherConfig): Promise<ExportSite> {
  // The site's and the API's own lines are diagnostics: stderr, so stdout is the export's alone.
  const threads = { output: process.stderr };
  const api = await resolveApi(config, threads);
  try {
    await checkApi(api.url, api.key, config.site.API_TIMEOUT_SECONDS);
  } catch (error) {
    await api.embedded?.close();
    throw error;
  }
  // Static pages cannot take a form post: theirs goes to the server at SITE_PUBLIC_URL, when the
  // server takes subscriptions (SMTP configured or SUBSCRIPTIONS=true); without it, no form.
  const { SUBSCRIPTIONS: subscriptions } = config.launcher;
  const wanted = subscriptions === true || (subscriptions !== false && Boolean(process.env.SMTP_HOST?.trim()));
  const formOrigin = wanted ? (config.site.SITE_PUBLIC_URL ?? null) : null;
  // The site is handed its API and its form's target as data, as under `npm start`.
  const siteConfig = siteConfigOf(config.site, config.languages, { api: { url: api.url, key: api.key }, subscriptions: formOrigin !== null, subscribeFormOrigin: formOrigin, audiences: null });
  const site = await startSiteThread(siteConfig, threads);
  const client = siteClient(site.origin);
  return {
    client,
    apiUrl: api.url,
    embedded: api.embedded !== null,
    ownApiRequests: 1,
    subscribeFormLeftOut: wanted && formOrigin === null,
    async close() {
      await client.close();
      await site.close();
      await api.embedded?.close();
    },
  };
}
