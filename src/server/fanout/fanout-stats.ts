/**
 * The push fan-out's figures, told by the site's thread (where it runs) to the metrics on the
 * main thread after each change: a handful of small messages per push at most.
 */
import { announcer } from '../../site/data/thread-channel.ts';

export const FANOUT_STATS_CHANNEL = 'porchlight:fanout-stats';

export interface FanoutStats {
  /** Notifications this replica sent (pushes it received). */
  sent: number;
  /** Notifications of other replicas heard. */
  received: number;
  /** Full resyncs: on each (re)connect of the listener, and for a version the poll found missed. */
  resyncs: number;
  /** Notifications that could not be sent (PostgreSQL unreachable); retried by the next poll. */
  failed: number;
  /** Whether the LISTEN is in place now. */
  listening: boolean;
}

export const announceFanoutStats: (stats: FanoutStats) => void = announcer<FanoutStats>(FANOUT_STATS_CHANNEL);

export function isFanoutStats(value: unknown): value is FanoutStats {
  if (typeof value !== 'object' || value === null) return false;
  const stats = value as Record<string, unknown>;
  return ['sent', 'received', 'resyncs', 'failed'].every((key) => typeof stats[key] === 'number') && typeof stats.listening === 'boolean';
}
