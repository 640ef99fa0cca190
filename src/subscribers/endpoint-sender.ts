/**
 * Drains the outbox's webhook and chat deliveries, beside the mail sender (outbox-sender.ts) and
 * independently of it: a receiver's slowness never holds up a mail, nor another receiver. Each
 * delivery runs on its own (no batch waits for its slowest member) within `concurrency` in
 * flight overall and `perHost` per receiving host, each request bounded by the transport's
 * timeout. A subscriber's deliveries go one at a time, oldest event first (store
 * claimDueDeliveries), so a receiver hears events in order even through retries. What an answer
 * means is delivery-policy.ts.
 */
import { decide, type Answer, type RetryRules } from './delivery-policy.ts';
import type { EndpointSend } from './endpoint-transport.ts';
import type { DueDelivery, SubscriberStore } from './store.ts';
import { Waker } from './waker.ts';

export interface EndpointSenderOptions {
  concurrency: number;
  perHost: number;
  retry: RetryRules;
  /** The request for one delivery (body and headers), or null when the event has no form for this channel. */
  build(due: DueDelivery): { body: string; headers: Record<string, string> } | null;
  /** A webhook paused after a day of failures: its contact address is told (when it gave one). */
  paused(due: DueDelivery): void;
  now?: () => number;
}

export interface EndpointCounts {
  delivered: number;
  retried: number;
  failed: number;
  gone: number;
  paused: number;
}

export class EndpointSender {
  readonly counts: EndpointCounts = { delivered: 0, retried: 0, failed: 0, gone: 0, paused: 0 };
  private readonly store: SubscriberStore;
  private readonly send: EndpointSend;
  private readonly options: EndpointSenderOptions;
  private readonly now: () => number;
  private readonly perHostBusy = new Map<string, number>();
  private readonly inFlight = new Set<Promise<void>>();
  /** The claims being delivered (the lease keeper renews these, and only these). */
  private readonly held = new Map<string, DueDelivery>();
  private readonly waker: Waker;

  constructor(store: SubscriberStore, send: EndpointSend, options: EndpointSenderOptions) {
    this.store = store;
    this.send = send;
    this.options = options;
    this.now = options.now ?? Date.now;
    // A claim that fails (the store busy or gone) is tried again a second later.
    this.waker = new Waker(() => this.claim().catch(() => this.schedule(this.now() + 1_000)), this.now);
  }

  /** The claims being worked on, for the lease keeper (outbox-leases.ts). */
  heldClaims(): DueDelivery[] {
    return [...this.held.values()];
  }

  /** Something may be due: claim what fits now (or as soon as the current claim ends). */
  wake(): void {
    this.waker.wake();
  }

  private schedule(at: number): void {
    this.waker.at(at);
  }

  private async claim(): Promise<void> {
    const free = this.options.concurrency - this.inFlight.size;
    const batch = await this.store.claimDueDeliveries(this.now(), free, this.options.perHost, this.perHostBusy);
    for (const due of batch) {
      this.perHostBusy.set(due.host, (this.perHostBusy.get(due.host) ?? 0) + 1);
      const key = `${due.subscriberId} ${due.eventId}`;
      this.held.set(key, due);
      const running: Promise<void> = this.deliver(due)
        // Failed (the store unreachable): given back unless handed over, else settled by its lease.
        .catch(() => this.store.release(due, this.now()).catch(() => false))
        .then(() => undefined)
        .finally(() => {
          this.held.delete(key);
          this.inFlight.delete(running);
          const left = (this.perHostBusy.get(due.host) ?? 1) - 1;
          if (left > 0) this.perHostBusy.set(due.host, left);
          else this.perHostBusy.delete(due.host);
          // A slot is free, and this subscriber's next event may be due now.
          this.wake();
        });
      this.inFlight.add(running);
    }
    if (batch.length === 0 && this.inFlight.size === 0) {
      const next = await this.store.nextDue(true);
      if (next !== null) this.schedule(next);
    } else if (batch.length === 0) {
      // Everything due waits for a slot (woken when one frees) or for a later time.
      const next = await this.store.nextDue(true);
      if (next !== null && next > this.now()) this.schedule(next);
    }
  }

  private async deliver(due: DueDelivery): Promise<void> {
    const request = this.options.build(due);
    if (!request) {
      await this.store.markFailed(due, this.now(), false);
      this.counts.failed += 1;
      return;
    }
    // From here a crash leaves it in doubt; a claim no longer ours (lease over, settled by another process) is not sent.
    if (!(await this.store.markStarted(due, this.now()))) return;
    const answer: Answer = await this.send({ url: due.url, ...request });
    const now = this.now();
    const decision = decide(answer, due.attempts, due.queuedAt, now, this.options.retry);
    switch (decision.action) {
      case 'delivered':
        await this.store.markSent(due, now);
        this.counts.delivered += 1;
        return;
      case 'gone':
        // 410: the receiver says it is gone for good; the subscription (and what waits for it) goes.
        await this.store.remove(due.subscriberId);
        this.counts.gone += 1;
        return;
      case 'give-up':
        await this.store.markFailed(due, now, false);
        this.counts.failed += 1;
        return;
      case 'retry':
        await this.store.markRetry(due, decision.at, now);
        this.counts.retried += 1;
        this.schedule(Math.min(decision.at, (await this.store.nextDue(true)) ?? decision.at));
        return;
      case 'pause':
        await this.store.pauseEndpoint(due.subscriberId, now);
        this.counts.paused += 1;
        this.options.paused(due);
        return;
    }
  }

  /** Stops claiming; deliveries under way finish (each bounded by its timeout). */
  async close(): Promise<void> {
    await this.waker.close();
    await Promise.all([...this.inFlight]);
  }
}
