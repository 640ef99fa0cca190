/** `npm start`: validate configuration, start Porchlight, say where it is, stop cleanly on a signal. */
import { ConfigError } from '../site/config-error.ts';
import { createLogger, reasonOf } from '../logging/logger.ts';
import { loadLauncherConfigOnThread } from './threads/config-thread.ts';
import { startPorchlight } from './start.ts';
import { SiteNotBuiltError } from './site-handler.ts';
import { THREAD_CODE } from './thread-entry.ts';

// LOG_LEVEL is read when the first logger is made; a bad value stops start-up just below.
const log = createLogger('launcher');

function fail(message: string): never {
  log.fatal({ event: 'start', outcome: 'failure', reason: message }, `porchlight: ${message}`);
  process.exit(1);
}

// @astrojs/node swallows rejections outside a render; say at least what went wrong, without a stack.
process.on('unhandledRejection', (reason) => {
  log.error({ reason: reasonOf(reason) }, `unhandled rejection (${reasonOf(reason)})`);
});

try {
  const config = await loadLauncherConfigOnThread();
  const running = await startPorchlight(config, log);
  log.info(
    {
      event: 'start',
      siteUrl: running.siteUrl,
      apiUrl: running.apiUrl,
      embeddedApi: running.embedded !== null,
      ...(running.embedded ? { store: config.launcher.DATABASE_URL ? 'PostgreSQL (DATABASE_URL), schema service' : config.launcher.DATABASE_PATH } : {}),
      cacheDir: config.site.CACHE_DIR,
      freshSeconds: config.site.CACHE_FRESH_SECONDS,
      maxStaleSeconds: config.site.CACHE_MAX_STALE_SECONDS,
      pageCacheSeconds: config.launcher.PAGE_CACHE_SECONDS,
      push: running.push.on ? 'on' : 'off',
      metricsUrl: running.metricsUrl,
      // Which code the threads run: the bundles (dist/threads/) or the TypeScript sources.
      threads: THREAD_CODE,
    },
    `Porchlight listening on ${running.siteUrl}`,
  );
  if (running.embedded) {
    log.info({ apiUrl: running.apiUrl }, `Embedded Monitoring and Status API on ${running.apiUrl} (store: ${config.launcher.DATABASE_URL ? 'PostgreSQL (DATABASE_URL), schema service' : config.launcher.DATABASE_PATH})`);
  } else {
    log.info({ apiUrl: running.apiUrl }, `Using the Monitoring and Status API at ${running.apiUrl}`);
  }
  log.info({ push: running.push.on ? 'on' : 'off' }, running.push.on ? 'Push updates on: the API announces changes, pages update within seconds' : `Push updates off (${running.push.reason})`);
  if (running.subscriptions.mode === 'demo') {
    log.info({ subscriptions: 'demo', mailFolder: running.subscriptions.mailFolder }, `E-mail subscriptions on (demo): mails go to a local catch-all SMTP server and are written as .eml files to ${running.subscriptions.mailFolder}`);
  } else {
    log.info({ subscriptions: running.subscriptions.mode }, running.subscriptions.mode === 'smtp' ? 'E-mail subscriptions on' : 'E-mail subscriptions off');
  }
  if (running.console) {
    log.info({ console: running.console.url }, `Console on at ${running.console.url}`);
    if (running.console.firstSignInLink) log.info({ firstSignIn: running.console.firstSignInLink }, `  First sign-in (demo admin, link valid 24 h): ${running.console.firstSignInLink}`);
  }
  if (running.metricsUrl) log.info({ metricsUrl: running.metricsUrl }, `Prometheus metrics at ${running.metricsUrl}`);
  if (running.demo) {
    // The seeded demo organization's key, printed so the demo can be explored with curl.
    log.info({ demoOrganization: running.demo.organizationName, demoApiKey: running.demo.apiKey }, `Demo organization "${running.demo.organizationName}", API key (demo data only): ${running.demo.apiKey}`);
    for (const page of running.demo.pages) {
      const visibility = page.isPublic ? 'public' : 'not public: answers 404, as if it did not exist';
      const domain = page.customDomain ? ` (custom domain ${page.customDomain})` : '';
      log.info(`  ${running.siteUrl}/${page.slug}  ${visibility}${domain}`);
    }
  }
  const shutdown = (signal: NodeJS.Signals) => {
    const started = performance.now();
    log.info({ event: 'shutdown', signal }, `${signal} received: finishing requests in flight, then stopping`);
    running.close().then(
      () => {
        log.info({ event: 'shutdown', outcome: 'clean', durationMs: Math.round(performance.now() - started) }, 'stopped');
        process.exit(0);
      },
      (error: unknown) => {
        log.error({ event: 'shutdown', outcome: 'failure', reason: reasonOf(error) }, `stopping failed (${reasonOf(error)})`);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
} catch (error) {
  if (error instanceof ConfigError || error instanceof SiteNotBuiltError) fail(error.message);
  if (error instanceof Error && 'code' in error && error.code === 'EADDRINUSE') {
    fail(`${error.message}: set PORT (site), API_PORT (embedded API) or METRICS_PORT to a free port`);
  }
  fail(reasonOf(error));
}
