/**
 * Each refresh of the status data, announced for the launcher's metrics (src/server/metrics.ts).
 * A BroadcastChannel, because the site refreshes on a worker thread of its own and the metrics
 * live on the main thread; posting costs one small message per refresh.
 */
import type { RefreshTrigger } from './snapshot-cache.ts';

export const REFRESH_EVENTS = 'porchlight:refresh';

export interface RefreshEvent {
  outcome: 'success' | 'failure';
  trigger: RefreshTrigger;
  durationSeconds: number;
  /** API requests the refresh made, retries included. */
  requests: number;
}

let channel: BroadcastChannel | undefined;

export function publishRefresh(event: RefreshEvent): void {
  if (!channel) {
    channel = new BroadcastChannel(REFRESH_EVENTS);
    // Announcing must never keep the thread alive.
    (channel as BroadcastChannel & { unref?: () => void }).unref?.();
  }
  channel.postMessage(event);
}
