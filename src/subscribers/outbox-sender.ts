/**
 * Drains the durable outbox with bounded concurrency, off every request's path. A mail is claimed
 * (`sending`, with a lease: store.claimDue) only right before it is handed to SMTP, and marked
 * started (store.markStarted) just before, so a crash can leave at most `concurrency` mails in
 * doubt, and those are never sent again (store.reclaimExpired, once their lease is over); a claim
 * lost meanwhile (this process stalled past its lease) is not sent, and a result recorded after
 * losing it changes nothing. SMTP unreachable:
 * the whole sender pauses with a growing delay and the mails wait; a 4xx: that mail waits with
 * its own backoff; a 5xx to RCPT TO: that mail is given up and counts towards the address bouncing.
 * The store unreachable (PostgreSQL stopped or failing over): the round ends, and the sender tries
 * again after a delay that grows from half a second to 10 s while it lasts; a claimed mail whose
 * work failed is given back if it was not handed over, else (or when even that fails) settled by
 * its lease, no longer renewed: pending again, or `unknown` if handed over (docs/subscriptions.md).
 * Every store call settles (the PostgreSQL dialect gives a call up after ANSWER_WAIT_MS) and SMTP
 * has its own timeouts, so a round always ends and the next one is scheduled.
 */
import type { MailContent } from './mail-view.ts';
import { finishMail } from './mail-view.ts';
import type { MailTransport } from './mail-transport.ts';
import type { DueMail, OutboxKey, SubscriberStore } from './store.ts';
import type { JsonObject } from './webhook-payload.ts';
import { Waker } from './waker.ts';

export interface SenderOptions {
  concurrency: number;
  /** First retry delay; doubles per attempt. */
  retryBaseMs: number;
  retryMaxMs: number;
  /** Attempts after which a mail that keeps failing temporarily is given up. */
  maxAttempts: number;
  /**
   * Pace of sending (0: as fast as SMTP takes them). A fan-out spread over time leaves the CPU
   * to the pages a crowd is loading during the very incident being mailed.
   */
  maxPerSecond: number;
  /** The manage (unsubscribe) link of a subscriber, from the link base stored with the event, in the mail's language. */
  manageUrl(manageBase: string, subscriberId: string, locale: string): string;
  messageId(mail: DueMail): string;
  /** A round failed (the store unreachable, say): told once per failed round; the sender retries. */
  onRoundFailed?(error: unknown, retryInMs: number): void;
  now?: () => number;
}

export interface SenderCounts {
  sent: number;
  failed: number;
  retried: number;
}

export interface StoredMail extends MailContent {
  manageBase: string;
}

/**
 * What an event row holds: its mail rendered in each language the page's subscribers read, and
 * the page's default language, for subscribers who kept none (or one no longer offered).
 */
export interface StoredEvent {
  defaultLocale: string;
  mails: Record<string, StoredMail>;
  /** Webhook subscribers' payload without `meta` (webhook-payload.ts); absent when the event has none. */
  hook?: JsonObject;
  /** The unsubscribe base of the page (webhook and chat deliveries; mails carry theirs). */
  manageBase?: string;
}

/** The stored event of an outbox row, or null when it cannot be read. */
export function storedEventOf(raw: string): StoredEvent | null {
  try {
    const parsed: unknown = JSON.parse(raw);
    return typeof parsed === 'object' && parsed !== null && 'mails' in parsed && 'defaultLocale' in parsed ? (parsed as StoredEvent) : null;
  } catch {
    return null;
  }
}

/** The mail of a stored event for a subscriber's language; rows from before languages hold one mail. */
export function storedMailFor(raw: string, locale: string | null): StoredMail | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null) return null;
  if ('mails' in parsed && 'defaultLocale' in parsed) {
    const { mails, defaultLocale } = parsed as StoredEvent;
    return (locale !== null && Object.hasOwn(mails, locale) ? mails[locale] : mails[defaultLocale]) ?? null;
  }
  return 'subject' in parsed ? (parsed as StoredMail) : null;
}

export class OutboxSender {
  readonly counts: SenderCounts = { sent: 0, failed: 0, retried: 0 };
  private readonly waker: Waker;
  /** The claims this sender is working on (the lease keeper renews these, and only these). */
  private readonly held = new Map<string, OutboxKey>();
  private pausedUntil = 0;
  private pauses = 0;
  /** Rounds failed in a row (the store unreachable): the delay before the next grows with it. */
  private failedRounds = 0;
  private closed = false;
  private readonly now: () => number;
  private readonly store: SubscriberStore;
  private readonly transport: MailTransport;
  private readonly options: SenderOptions;

  constructor(store: SubscriberStore, transport: MailTransport, options: SenderOptions) {
    this.store = store;
    this.transport = transport;
    this.options = options;
    this.now = options.now ?? Date.now;
    this.waker = new Waker(() => this.pump(), this.now);
  }

  /** The claims being worked on, for the lease keeper (outbox-leases.ts). */
  heldClaims(): OutboxKey[] {
    return [...this.held.values()];
  }

  /** Something may be due: drain now (or as soon as the current round ends). */
  wake(): void {
    this.waker.wake();
  }

  private schedule(at: number): void {
    this.waker.at(at);
  }

  private async pump(): Promise<void> {
    try {
      await this.drain();
      this.failedRounds = 0;
    } catch (error) {
      this.failedRounds += 1;
      const retryInMs = Math.min(10_000, 500 * 2 ** Math.min(5, this.failedRounds - 1));
      this.options.onRoundFailed?.(error, retryInMs);
      this.schedule(this.now() + retryInMs);
    }
  }

  private async drain(): Promise<void> {
    while (!this.closed) {
      const now = this.now();
      if (now < this.pausedUntil) return this.schedule(this.pausedUntil);
      const batch = await this.store.claimDue(now, this.options.concurrency);
      if (batch.length === 0) {
        const next = await this.store.nextDue();
        if (next !== null) this.schedule(next);
        return;
      }
      // Every send of the batch ends before the next claim (at most `concurrency` at once), even when one fails.
      const failed = (await Promise.allSettled(batch.map((mail) => this.settle(mail)))).find((result) => result.status === 'rejected');
      if (failed) throw failed.reason;
      if (this.options.maxPerSecond > 0) {
        const wait = (batch.length * 1000) / this.options.maxPerSecond - (this.now() - now);
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      }
    }
  }

  private backoff(attempts: number, base: number): number {
    return Math.min(this.options.retryMaxMs, base * 2 ** Math.max(0, attempts - 1));
  }

  /**
   * One claimed mail, held (renewed) while it is worked on and let go after, whatever happened.
   * When its work fails (the store unreachable, a statement given up) the claim is given back if
   * the mail was not handed over yet; if that fails too, or it was handed over, its lease settles
   * it (pending again, or `unknown`: never sent twice).
   */
  private async settle(due: DueMail): Promise<void> {
    const key = `${due.subscriberId} ${due.eventId}`;
    this.held.set(key, due);
    try {
      await this.sendOne(due);
    } catch (error) {
      await this.store.release(due, this.now()).catch(() => false);
      throw error;
    } finally {
      this.held.delete(key);
    }
  }

  private async sendOne(due: DueMail): Promise<void> {
    const stored = storedMailFor(due.mail, due.locale);
    if (!stored) {
      await this.store.markFailed(due, this.now());
      this.counts.failed += 1;
      return;
    }
    const manageUrl = this.options.manageUrl(stored.manageBase, due.subscriberId, stored.locale ?? 'en');
    // From here a crash leaves it in doubt; a claim no longer ours (lease over, settled by another process) is not sent.
    if (!(await this.store.markStarted(due, this.now()))) return;
    const result = await this.transport.send({ to: due.email, mail: finishMail(stored, manageUrl), unsubscribeUrl: manageUrl, messageId: this.options.messageId(due) });
    const now = this.now();
    if (result.outcome === 'sent') {
      this.pauses = 0;
      await this.store.markSent(due, now);
      this.counts.sent += 1;
      return;
    }
    if (result.outcome === 'permanent' || due.attempts >= this.options.maxAttempts) {
      await this.store.markFailed(due, now, result.outcome === 'permanent');
      this.counts.failed += 1;
      return;
    }
    this.counts.retried += 1;
    if (result.unreachable) {
      // The server, not the address: everything waits, with a delay that grows while it lasts.
      if (now >= this.pausedUntil) {
        this.pauses += 1;
        // Capped at a minute: the mails go out soon after the server is back.
        this.pausedUntil = now + Math.min(60_000, this.backoff(this.pauses, this.options.retryBaseMs));
      }
      await this.store.markRetry(due, this.pausedUntil, now);
      return;
    }
    await this.store.markRetry(due, now + this.backoff(due.attempts, this.options.retryBaseMs), now);
  }

  /** Stops claiming; mails already handed to SMTP finish. */
  async close(): Promise<void> {
    this.closed = true;
    await this.waker.close();
  }
}
