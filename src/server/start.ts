/**
 * Composes Porchlight: the site, and the embedded API service when no external API is
 * configured. The two meet only over HTTP; the site is told the API's URL and key
 * through its environment, exactly as it would be for the hosted service.
 */
import http from 'node:http';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { DemoInfo, ServiceOptions } from '../service/index.ts';
import { ConfigError } from '../site/config.ts';
import type { LauncherConfig } from './config.ts';
import { SiteNotBuiltError } from './site-handler.ts';
import { startThread, ThreadStartError, type StartedThread, type ThreadOptions } from './threads/worker-thread.ts';
import { createFrontHandler } from './front/front-server.ts';
import { createPublicServer } from './front/public-server.ts';

export interface RunningPorchlight {
  siteUrl: string;
  apiUrl: string;
  embedded: EmbeddedService | null;
  demo: DemoInfo | null;
  close(): Promise<void>;
}

/** The embedded API as the launcher sees it: it runs on a thread of its own. */
interface EmbeddedService {
  url: string;
  demo: DemoInfo | null;
  setDemoSiteUrl(siteUrl: string): void;
  close(): Promise<void>;
}

async function startEmbeddedService(config: LauncherConfig, threads: ThreadOptions): Promise<EmbeddedService> {
  const { DATABASE_PATH, API_PORT, SEED_DEMO } = config.launcher;
  if (DATABASE_PATH !== ':memory:') mkdirSync(dirname(DATABASE_PATH), { recursive: true });
  // Loaded only when used: a site pointed at an external API carries none of the service's code.
  const { readEngineConfig, readLimitsConfig } = await import('../service/config.ts');
  const options: ServiceOptions = {
    databasePath: DATABASE_PATH,
    host: '127.0.0.1',
    port: API_PORT,
    seedDemo: SEED_DEMO,
    ...readLimitsConfig(process.env),
    ...readEngineConfig(process.env),
  };
  const thread = await startThread<{ url: string; demo: DemoInfo | null }>(new URL('./threads/service-worker.ts', import.meta.url), options, 'porchlight-api', threads);
  exitWhenLost(thread, 'the embedded API');
  return {
    url: thread.ready.url,
    demo: thread.ready.demo,
    setDemoSiteUrl: (siteUrl) => thread.post({ type: 'demo-site-url', url: siteUrl }),
    close: () => thread.close(),
  };
}

/**
 * A thread that dies on its own leaves the site unable to render or refresh: say so in one line
 * and exit, so the service manager starts a clean process (crash-only; nothing half-alive).
 */
function exitWhenLost(thread: StartedThread<unknown>, what: string): void {
  thread.onUnexpectedExit((code) => {
    console.error(`porchlight: ${what} stopped unexpectedly (exit code ${code}); exiting`);
    process.exit(1);
  });
}

/** Where the site finds its API: the configured one, or the embedded service started here. */
export async function resolveApi(config: LauncherConfig, threads: ThreadOptions = {}): Promise<{ url: string; key: string; embedded: EmbeddedService | null }> {
  const { STATUS_API_URL: url, STATUS_API_KEY: key } = config.site;
  if (url && key) return { url, key, embedded: null };
  const embedded = await startEmbeddedService(config, threads);
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

/** The Astro site on a thread of its own, on an internal loopback port; only the front server talks to it. */
export async function startSiteThread(threads: ThreadOptions = {}): Promise<{ origin: string; close(): Promise<void> }> {
  const thread = await startThread<{ origin: string }>(new URL('./threads/site-worker.ts', import.meta.url), null, 'porchlight-site', threads).catch((error: unknown) => {
    throw error instanceof ThreadStartError && error.causeName === 'SiteNotBuiltError' ? new SiteNotBuiltError() : error;
  });
  exitWhenLost(thread, 'the site renderer');
  return { origin: thread.ready.origin, close: () => thread.close() };
}

export async function startPorchlight(config: LauncherConfig): Promise<RunningPorchlight> {
  const { url: apiUrl, key: apiKey, embedded } = await resolveApi(config);
  process.env.STATUS_API_URL = apiUrl;
  process.env.STATUS_API_KEY = apiKey;

  const site = await startSiteThread();
  const front = createFrontHandler({
    upstream: site.origin,
    freshMs: config.launcher.PAGE_CACHE_SECONDS * 1000,
    maxStaleMs: config.site.CACHE_MAX_STALE_SECONDS * 1000,
    maxEntries: 2_000,
    maxBytes: 64 * 1024 * 1024,
  });
  const server = createPublicServer(front.handle);
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
