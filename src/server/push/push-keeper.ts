/**
 * The site thread's side of push: keeps Porchlight's channel in the organization once the launcher
 * says where the API can reach it, and tells the site's data (push-signal.ts) that push works.
 * It runs beside the site's data because it needs the typed API client, which the serving thread
 * does without (a second HTTP client there costs resident memory, see front/site-pool.ts).
 */
import { signalPushChannelVerified, onPush } from '../../site/data/push-signal.ts';
import { PUSH_WORKING_MS } from '../../site/data/refresh-plan.ts';
import { createClient } from '../../api/index.ts';
import { createLogger, reasonOf, type Logger } from '../../logging/logger.ts';
import { ensurePushChannel } from './push-channel.ts';

/** The launcher's message to the site thread once it listens. */
export type KeepPushChannelMessage = {
  type: 'keep-push-channel';
  name: string;
  webhookUrl: string;
};

export function isKeepPushChannelMessage(message: { type: string } & Record<string, unknown>): message is KeepPushChannelMessage {
  return message.type === 'keep-push-channel' && typeof message.name === 'string' && typeof message.webhookUrl === 'string';
}

export interface PushKeeper {
  keep(message: KeepPushChannelMessage): void;
  stop(): Promise<void>;
}

const FIRST_RETRY_MS = 5_000;
const MAX_RETRY_MS = 300_000;
/**
 * A verified channel is checked again this often: each check tells the site that push still
 * works (it then polls only as a safety net, see site/data/refresh-plan.ts), for one or two requests.
 */
export const PUSH_CHANNEL_RECHECK_MS = 1_800_000;

/**
 * Ensures the channel now, again after a growing wait while the API fails, and every
 * PUSH_CHANNEL_RECHECK_MS once it is in place; `onVerified` is told each time it is. `stop` ends it.
 */
export function keepPushChannel(options: { apiUrl: string; apiKey: string; name: string; webhookUrl: string; log: Logger; onVerified?: () => void }): { stop(): Promise<void> } {
  const client = createClient({ baseUrl: options.apiUrl, apiKey: options.apiKey, logger: { warn: (message) => options.log.warn(message) } });
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  let running: Promise<void> = Promise.resolve();

  const attempt = async (waitMs: number): Promise<void> => {
    try {
      const { outcome } = await ensurePushChannel(client.notifications, { name: options.name, webhookUrl: options.webhookUrl });
      if (stopped) return;
      options.log.info({ event: 'push-channel', outcome, channel: options.name }, `push channel "${options.name}" ${outcome}`);
      options.onVerified?.();
      timer = setTimeout(() => {
        running = attempt(0);
      }, PUSH_CHANNEL_RECHECK_MS);
      timer.unref();
    } catch (error) {
      if (stopped) return;
      const retryMs = Math.max(waitMs, FIRST_RETRY_MS);
      options.log.warn(
        { event: 'push-channel', outcome: 'failure', reason: reasonOf(error), retryInSeconds: retryMs / 1000 },
        `could not set up the push channel (${reasonOf(error)}); trying again in ${retryMs / 1000} s`,
      );
      timer = setTimeout(() => {
        running = attempt(Math.min(retryMs * 2, MAX_RETRY_MS));
      }, retryMs);
      timer.unref();
    }
  };
  running = attempt(FIRST_RETRY_MS);

  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      // A set-up still waiting on an unreachable API must not hold the shutdown up.
      await Promise.race([running, new Promise((resolve) => setTimeout(resolve, 1_000).unref())]);
      void client.close().catch(() => undefined);
    },
  };
}

export function createPushKeeper(api: { apiUrl: string; apiKey: string }): PushKeeper {
  const log = createLogger('push');
  let verifiedAt: number | null = null;
  let channel: { stop(): Promise<void> } | null = null;
  // The site's data asks once it loads whether the channel was verified before (a thread channel
  // keeps no messages for listeners to come).
  const stopAnswering = onPush((message) => {
    if (message.type === 'ask' && verifiedAt !== null && Date.now() - verifiedAt <= PUSH_WORKING_MS) signalPushChannelVerified();
  });
  return {
    keep(message) {
      if (channel) return;
      channel = keepPushChannel({
        ...api,
        name: message.name,
        webhookUrl: message.webhookUrl,
        log,
        onVerified: () => {
          verifiedAt = Date.now();
          signalPushChannelVerified();
        },
      });
    },
    async stop() {
      stopAnswering();
      await channel?.stop();
    },
  };
}
