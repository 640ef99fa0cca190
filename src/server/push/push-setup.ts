/**
 * Whether push updates can work, at which address the API reaches the push route, and keeping
 * Porchlight's channel in the organization (retried in the background until the API answers).
 */
import type { AddressInfo } from 'node:net';
import { createClient } from '../../api/index.ts';
import { reasonOf, type Logger } from '../../logging/logger.ts';
import { ensurePushChannel, pushChannelName } from './push-channel.ts';
import { PUSH_PATH } from './push-receiver.ts';

export type PushPlan =
  /** `publicUrl` null: the API posts over loopback. */
  | { on: true; publicUrl: string | null; name: string }
  | { on: false; reason: string };

/**
 * The embedded API posts over loopback; an external one needs SITE_PUBLIC_URL, the address at
 * which it can reach this site. Without it, freshness stays polling-only.
 */
export function planPush(options: { enabled: boolean; embedded: boolean; publicUrl: string | null }): PushPlan {
  if (!options.enabled) return { on: false, reason: 'PUSH_UPDATES=false' };
  if (options.embedded) return { on: true, publicUrl: null, name: pushChannelName(null) };
  if (options.publicUrl) return { on: true, publicUrl: options.publicUrl, name: pushChannelName(options.publicUrl) };
  return { on: false, reason: 'SITE_PUBLIC_URL is not set, so the external API cannot reach this site: data freshness is polling-only' };
}

/** How a process on this machine reaches a server listening at `address`. */
export function loopbackOrigin(address: AddressInfo): string {
  const wildcard = address.address === '0.0.0.0' || address.address === '::' || address.address === '';
  if (wildcard || address.family === 'IPv4') return `http://${wildcard ? '127.0.0.1' : address.address}:${address.port}`;
  // A bracketed IPv6 literal is not a host name the API accepts in a webhook URL.
  return `http://localhost:${address.port}`;
}

export function pushUrl(origin: string, token: string): string {
  return `${origin.replace(/\/+$/, '')}${PUSH_PATH}${token}`;
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
