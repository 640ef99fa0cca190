/**
 * The safety net under LISTEN: every `intervalMs` the data version (site_events) is read; one
 * newer than the newest this replica handled, still so after `graceMs`, means a notification was
 * missed (a connection lost between two of them, a NOTIFY folded away): `onMissed` resyncs.
 * A failed read is only logged: the next one tries again.
 */
import type { Database } from '../../store/database.ts';
import { pollVerdict } from './fanout-message.ts';
import { readSiteVersion } from './site-store.ts';

export interface VersionPollOptions {
  intervalMs: number;
  graceMs: number;
  /** The newest version this replica handled (its own notifications, those heard, resyncs). */
  handled(): number;
  /** A version was missed: resync, and count `seen` as handled. */
  onMissed(seen: number): void;
  /** Each tick, before the read (the notifier retries a notification it owes here). */
  onTick?(): Promise<void>;
  onError(error: unknown): void;
  now?: () => number;
}

export function pollSiteVersion(db: Database, options: VersionPollOptions): { stop(): void } {
  const now = options.now ?? Date.now;
  let behindSince: number | null = null;
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      await options.onTick?.();
      const seen = await readSiteVersion(db);
      const verdict = pollVerdict({ seen, handled: options.handled(), behindSince, nowMs: now(), graceMs: options.graceMs });
      behindSince = verdict.behindSince;
      if (verdict.resync) options.onMissed(seen);
    } catch (error) {
      options.onError(error);
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void tick(), options.intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
