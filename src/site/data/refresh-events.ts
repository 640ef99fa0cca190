/**
 * Each refresh of the status data, published on a diagnostics channel for the launcher's
 * metrics (src/server/metrics.ts): synchronous, process-wide, and free when nobody listens.
 */
import { channel } from 'node:diagnostics_channel';
import type { RefreshTrigger } from './snapshot-cache.ts';

export const REFRESH_EVENTS = 'porchlight:refresh';

export interface RefreshEvent {
  outcome: 'success' | 'failure';
  trigger: RefreshTrigger;
  durationSeconds: number;
  /** API requests the refresh made, retries included. */
  requests: number;
}

const events = channel(REFRESH_EVENTS);

export function publishRefresh(event: RefreshEvent): void {
  if (events.hasSubscribers) events.publish(event);
}
