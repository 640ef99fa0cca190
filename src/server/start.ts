/**
 * Composes Porchlight: the site, and the embedded API service when no external API is
 * configured. The two meet only over HTTP; the site is told the API's URL and key
 * through its environment, exactly as it would be for the hosted service.
 */
import http from 'node:http';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { DemoInfo, RunningService } from '../service/index.ts';
import { ConfigError } from '../site/config.ts';
import type { LauncherConfig } from './config.ts';
import { loadSiteHandler } from './site-handler.ts';
import { errorPage } from './error-page.ts';
import { createFrontHandler } from './front/front-server.ts';

export interface RunningPorchlight {
  siteUrl: string;
  apiUrl: string;
  embedded: RunningService | null;
  demo: DemoInfo | null;
  close(): Promise<void>;
}

async function startEmbeddedService(config: LauncherConfig): Promise<RunningService> {
  const { DATABASE_PATH, API_PORT, SEED_DEMO } = config.launcher;
  if (DATABASE_PATH !== ':memory:') mkdirSync(dirname(DATABASE_PATH), { recursive: true });
  // Loaded only when used: a site pointed at an external API carries none of the service's code.
  const { readEngineConfig, readLimitsConfig, startService } = await import('../service/index.ts');
  return startService({
    databasePath: DATABASE_PATH,
    host: '127.0.0.1',
    port: API_PORT,
    seedDemo: SEED_DEMO,
    ...readLimitsConfig(process.env),
    ...readEngineConfig(process.env),
  });
}

/** Where the site finds its API: the configured one, or the embedded service started here. */
export async function resolveApi(config: LauncherConfig): Promise<{ url: string; key: string; embedded: RunningService | null }> {
  const { STATUS_API_URL: url, STATUS_API_KEY: key } = config.site;
  if (url && key) return { url, key, embedded: null };
  const embedded = await startEmbeddedService(config);
  const embeddedKey = key ?? embedded.demo?.apiKey;
  if (!embeddedKey) {
    await embedded.close();
    throw new ConfigError('STATUS_API_KEY is required: the embedded store has no demo organization (SEED_DEMO=false)');
  }
  return { url: embedded.url, key: embeddedKey, embedded };
}

function listen(server: http.Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
}

/** The Astro site on a loopback port of its own; only the front server talks to it. */
export async function startInternalSite(): Promise<{ origin: string; close(): Promise<void> }> {
  const handler = await loadSiteHandler();
  const server = http.createServer((req, res) => {
    try {
      handler(req, res);
    } catch (error) {
      console.error('porchlight: site handler failed:', error instanceof Error ? error.message : String(error));
      if (!res.headersSent) errorPage(res, 500);
    }
  });
  await listen(server, 0, '127.0.0.1');
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export async function startPorchlight(config: LauncherConfig): Promise<RunningPorchlight> {
  const { url: apiUrl, key: apiKey, embedded } = await resolveApi(config);
  process.env.STATUS_API_URL = apiUrl;
  process.env.STATUS_API_KEY = apiKey;

  const site = await startInternalSite();
  const front = createFrontHandler({
    upstream: site.origin,
    freshMs: config.launcher.PAGE_CACHE_SECONDS * 1000,
    maxStaleMs: config.site.CACHE_MAX_STALE_SECONDS * 1000,
    maxEntries: 2_000,
    maxBytes: 64 * 1024 * 1024,
  });
  const server = http.createServer(front.handle);
  server.keepAliveTimeout = 65_000;
  await listen(server, config.launcher.PORT, config.launcher.HOST);
  const { port } = server.address() as AddressInfo;
  const host = config.launcher.HOST.includes(':') ? `[${config.launcher.HOST}]` : config.launcher.HOST;
  // The demo's "Website" monitor checks this very site's /healthz.
  embedded?.setDemoSiteUrl(`http://127.0.0.1:${port}/`);

  return {
    siteUrl: `http://${host === '0.0.0.0' ? 'localhost' : host}:${port}`,
    apiUrl,
    embedded,
    demo: embedded?.demo ?? null,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await front.close();
      await site.close();
      await embedded?.close();
    },
  };
}
