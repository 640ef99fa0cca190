/**
 * Keeps this process's outbox claims alive and settles everyone's dead ones. Every third of a
 * lease it renews the claims its senders are still working on (a send that outlasts a lease keeps
 * its row; a claim whose round failed is left to run out), then
 * settles rows whose lease ran out (store.reclaimExpired: never handed over → pending again;
 * handed over → unknown). So a process killed mid fan-out leaves its claims to the others within
 * about 1⅓ leases, and a process starting while another sends never touches that one's live claims.
 */
import type { OutboxKey, Reclaimed, SubscriberStore } from './store.ts';

export interface LeaseKeeperOptions {
  /** The claims the senders are working on right now (OutboxSender / EndpointSender `heldClaims`). */
  held(): readonly OutboxKey[];
  /** Rows were settled (`requeued` > 0: wake the senders). */
  onReclaimed(result: Reclaimed): void;
  onError(error: unknown): void;
  now?: () => number;
}

export interface LeaseKeeper {
  /** The first round (renew, then reclaim), run at once; resolves when it is done. */
  ready: Promise<void>;
  stop(): Promise<void>;
}

export function keepLeases(store: SubscriberStore, options: LeaseKeeperOptions): LeaseKeeper {
  const now = options.now ?? Date.now;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let round: Promise<void> = Promise.resolve();
  const run = async () => {
    try {
      const held = options.held();
      if (held.length > 0) await store.renewLeases(now(), held);
      const result = await store.reclaimExpired(now());
      if (result.requeued > 0 || result.inDoubt > 0) options.onReclaimed(result);
    } catch (error) {
      options.onError(error);
    }
  };
  const next = () => {
    if (stopped) return;
    // One round at a time; the next a third of a lease after this one ends.
    timer = setTimeout(() => {
      round = run().finally(next);
    }, Math.max(10, Math.floor(store.leaseMs / 3)));
    timer.unref();
  };
  round = run().finally(next);
  return {
    ready: round,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await round;
    },
  };
}
