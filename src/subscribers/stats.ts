/**
 * What the subscriptions thread tells the metrics (every few seconds, over a thread channel):
 * counts only, never an address.
 */
import type { StoreStats } from './store.ts';
import type { SenderCounts } from './outbox-sender.ts';
import type { EndpointCounts } from './endpoint-sender.ts';

export const SUBSCRIPTION_STATS_CHANNEL = 'porchlight:subscription-stats';

export interface SubscriptionStats extends StoreStats {
  /** Since the thread started. */
  sender: SenderCounts;
  confirmations: { sent: number; failed: number };
  /** Webhook and chat deliveries (optional: a thread from before them sends none). */
  webhooks?: EndpointCounts;
  at: number;
}

export function isSubscriptionStats(value: unknown): value is SubscriptionStats {
  return typeof value === 'object' && value !== null && 'subscribers' in value && 'outbox' in value && 'sender' in value;
}
