/**
 * Each refresh of the status data, announced for the launcher's metrics (src/server/metrics.ts).
 * A thread channel (thread-channel.ts), because the site refreshes on a worker thread of its own and the metrics
 * live on the main thread; posting costs one small message per refresh.
 */
import type { RefreshTrigger } from './snapshot-cache.ts';
import { announcer } from './thread-channel.ts';

export const REFRESH_EVENTS = 'porchlight:refresh';

export interface RefreshEvent {
  outcome: 'success' | 'failure';
  trigger: RefreshTrigger;
  durationSeconds: number;
  /** API requests the refresh made, retries included. */
  requests: number;
}

export const publishRefresh: (event: RefreshEvent) => void = announcer<RefreshEvent>(REFRESH_EVENTS);
