/**
 * E-mail subscriptions on their own thread: the store (SQLite, or PostgreSQL with DATABASE_URL), the outbox sender (SMTP) and the
 * subscription routes never run on the thread that answers visitors or on the site's.
 */
import { workerData } from 'node:worker_threads';
import type { SmtpSettings } from '../../contract/smtp.ts';
import type { LanguageSettings } from '../../site/i18n/settings.ts';
import type { LinkSettings } from '../../subscribers/page-address.ts';
import type { AudienceLocations } from '../../subscribers/private-subscribers.ts';
import { storeLocation } from '../../store/location.ts';
import { answerMemoryQueries } from './thread-memory.ts';
import { announceFailure, announceReady, onMessages, reportUnhandledRejections } from './thread-side.ts';

export interface SubscriptionsWorkerData {
  /** The SQLite file, used when `databaseUrl` is null. */
  databasePath: string;
  /** DATABASE_URL: the store on PostgreSQL. Never logged (it may carry a password). */
  databaseUrl: string | null;
  /** Null: the demo's catch-all mailbox, writing to `demoMailDir`. */
  smtp: SmtpSettings | null;
  demoMailDir: string | null;
  links: LinkSettings;
  /** The site's languages and time zones, as the launcher parsed them (server/config.ts). */
  languages: LanguageSettings;
  retryBaseMs?: number;
  maxPerSecond: number;
  monitorDown: boolean;
  /** SUBSCRIPTION_WEBHOOK_ALLOW_PRIVATE. */
  webhookAllowPrivate?: boolean;
  /** The audiences store and the sign-in store: subscribers of pages with an audience (docs/private-pages.md). */
  audiences?: AudienceLocations | null;
}

reportUnhandledRejections('subscriptions');
const stopMemoryAnswers = answerMemoryQueries('subscriptions');

try {
  const data = workerData as SubscriptionsWorkerData;
  const { startSubscriptions } = await import('../../subscribers/service.ts');
  const { SubscriberStore } = await import('../../subscribers/store.ts');
  // The store first: one that cannot open (PostgreSQL unreachable or too old, a newer schema)
  // stops start-up before anything else is made, the demo's mail folder included.
  const store = await SubscriberStore.open(storeLocation(data.databaseUrl, data.databasePath));
  const mailbox = data.smtp === null && data.demoMailDir ? await (await import('../../subscribers/demo-mailbox.ts')).startDemoMailbox(data.demoMailDir) : null;
  const smtp: SmtpSettings = data.smtp ?? { host: '127.0.0.1', port: mailbox?.port ?? 25, secure: false, from: 'Porchlight demo <status@porchlight.localhost>' };
  const links = { ...data.links };
  const running = await startSubscriptions({ database: store, smtp, links, languages: data.languages, maxPerSecond: data.maxPerSecond, monitorDown: data.monitorDown, webhooks: { allowPrivate: data.webhookAllowPrivate ?? false }, audiences: data.audiences ?? null, ...(data.retryBaseMs !== undefined && { retryBaseMs: data.retryBaseMs }) });
  onMessages(
    async () => {
      stopMemoryAnswers();
      await running.close();
      await mailbox?.close();
    },
    (message) => {
      // The demo links to the site's own address, known once it listens.
      if (message.type === 'link-origin' && typeof message.origin === 'string') links.origin = message.origin;
    },
  );
  announceReady({ origin: running.origin, mailFolder: mailbox?.folder ?? null });
} catch (error) {
  announceFailure(error);
}
