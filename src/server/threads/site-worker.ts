/**
 * The Astro site on its own thread: renders pages and keeps the status data fresh, answering the
 * front server over an internal loopback port. Only the front server talks to it.
 */
import http from '../../api/node-http.ts';
import type { AddressInfo } from 'node:net';
import { workerData } from 'node:worker_threads';
import { createLogger, reasonOf } from '../../logging/logger.ts';
import { errorPage } from '../error-page.ts';
import { createPushKeeper, isKeepPushChannelMessage } from '../push/push-keeper.ts';
import { loadSiteHandler } from '../site-handler.ts';
import { provideSiteConfig, type SiteConfig } from '../../site/running-config.ts';
import { relayApiRequests } from './api-request-relay.ts';
import { answerMemoryQueries } from './thread-memory.ts';
import { announceFailure, announceReady, onMessages, reportUnhandledRejections } from './thread-side.ts';

/** What the launcher (or the exporter) hands this thread: the site's whole configuration, as data. */
export interface SiteWorkerData {
  config: SiteConfig;
}

/** What this thread tells the launcher once it listens. */
export type SiteThreadReady = {
  origin: string;
  /** The push token the replicas share in PostgreSQL (null without DATABASE_URL). */
  sharedPushToken: string | null;
};

reportUnhandledRejections('site');
// The site's requests to the API are counted by the metrics on the main thread.
const stopRelay = relayApiRequests();
const stopMemoryAnswers = answerMemoryQueries('site');

try {
  const { config } = workerData as SiteWorkerData;
  // Before the handler loads: its pages read it (siteConfig()) from their first request on.
  provideSiteConfig(config);
  const handler = await loadSiteHandler();
  const server = http.createServer((req, res) => {
    try {
      handler(req, res);
    } catch (error) {
      createLogger('site').error({ reason: reasonOf(error) }, `site handler failed (${reasonOf(error)})`);
      if (!res.headersSent) errorPage(res, 500);
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const pushKeeper = createPushKeeper({ apiUrl: config.apiUrl, apiKey: config.apiKey });
  // With DATABASE_URL: pushes fan out to the other replicas (loaded only then: the driver with it).
  const fanout = config.fanout === null ? null : await (await import('../fanout/fanout.ts')).startFanout(config.fanout);
  onMessages(
    async () => {
      stopRelay();
      stopMemoryAnswers();
      await pushKeeper.stop();
      await fanout?.stop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
    (message) => {
      if (isKeepPushChannelMessage(message)) pushKeeper.keep(message);
    },
  );
  const ready: SiteThreadReady = { origin: `http://127.0.0.1:${port}`, sharedPushToken: fanout?.sharedPushToken ?? null };
  announceReady(ready);
} catch (error) {
  announceFailure(error);
}
