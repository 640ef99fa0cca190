import type { OrganizationEgress } from '../egress/organization-egress.ts';
import type { NotificationChannelRecord } from '../store/notifications.ts';
import { DeliveryRepository } from '../store/deliveries.ts';
import { NotificationOutboxClaims, type ClaimedNotification } from '../store/notification-outbox.ts';
import type { Store } from '../store/store.ts';
import type { AttemptResult } from './attempt-result.ts';
import { emailMessage } from './email-message.ts';
import { EmailTransport, recipientsOf, type SmtpSettings } from './email-transport.ts';
import { slackMessage } from './slack-message.ts';
import { WebhookTransport } from './webhook-transport.ts';

export interface DeliverySettings {
  /** Waits before the 2nd, 3rd, … attempt; attempts = delays + 1. Default 1 s, 5 s, 30 s (4 attempts). */
  retryDelaysMs: readonly number[];
  /** Time limit of one webhook POST. Default 5 s. */
  webhookTimeoutMs: number;
  /** Unset: e-mail deliveries are recorded as skipped. */
  smtp: SmtpSettings | null;
  /** Where each organization's webhooks may connect (the SMTP server is the operator's, not a tenant's: not subject to it). */
  egress: OrganizationEgress;
}

export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [1_000, 5_000, 30_000];
export const DEFAULT_WEBHOOK_TIMEOUT_MS = 5_000;

function channelLabel(channel: NotificationChannelRecord): string {
  return `${channel.type}:${JSON.stringify(channel.name)}`;
}

function outcomeText(result: AttemptResult): string {
  if (result.outcome === 'delivered') return `delivered${result.statusCode !== null ? ` (${result.statusCode})` : ''}`;
  return `${result.outcome}: ${result.error}`;
}

/** Tuning of the shared outbox; tests shorten the lease. */
export interface OutboxSettings {
  /** How long a claim holds unless renewed (renewed every third of it). Default 60 s. */
  leaseMs: number;
  /** Longest sleep of an idle sender before it looks for due rows (rows another process queued and could not send). Default 2 s. */
  pollMs: number;
  /** Sends running at once in this process. Default 16. */
  concurrency: number;
}

export const DEFAULT_OUTBOX_SETTINGS: OutboxSettings = { leaseMs: 60_000, pollMs: 2_000, concurrency: 16 };

/**
 * Sends the notification outbox (store/notification-outbox.ts) from this process: claims due rows
 * (one holder per row across every process on the store), sends each concurrently (a slow or dead
 * channel never holds up another one or the API), records every attempt fenced by its claim, and
 * retries with backoff while the failure is retryable (the row waits in the outbox, claimed by
 * nobody, so any process may make the next attempt). A lease keeper renews this process's claims
 * and settles expired ones of any process. No URL or message body is logged.
 */
export class DeliveryQueue {
  private readonly store: Store;
  private readonly now: () => Date;
  private readonly log: (line: string) => void;
  private readonly retryDelaysMs: readonly number[];
  private readonly webhooks: WebhookTransport;
  private readonly email: EmailTransport;
  private readonly claims: NotificationOutboxClaims;
  private readonly settings: OutboxSettings;
  private readonly inFlight = new Set<Promise<void>>();
  /** The claims being sent (the lease keeper renews these, and only these). */
  private readonly held = new Set<string>();
  private readonly abort = new AbortController();
  private timer: NodeJS.Timeout | null = null;
  private leaseTimer: NodeJS.Timeout | null = null;
  private pumping: Promise<void> | null = null;
  private again = false;

  constructor(deps: { store: Store; now: () => Date; log: (line: string) => void }, settings: DeliverySettings, outbox: Partial<OutboxSettings> = {}) {
    this.store = deps.store;
    this.now = deps.now;
    this.log = deps.log;
    this.retryDelaysMs = settings.retryDelaysMs;
    this.webhooks = new WebhookTransport(settings.webhookTimeoutMs, settings.egress);
    this.email = new EmailTransport(settings.smtp);
    this.settings = { ...DEFAULT_OUTBOX_SETTINGS, ...outbox };
    this.claims = new NotificationOutboxClaims(deps.store.db, this.settings.leaseMs);
  }

  /** This process's holder id in the outbox. */
  get holder(): string {
    return this.claims.holder;
  }

  /** Starts the lease keeper and the first round of sending. */
  start(): void {
    if (this.abort.signal.aborted) return;
    void this.keepLeases();
    this.wake();
  }

  /** Rows were queued (or may have come due): look for due rows now. */
  wake(): void {
    if (this.abort.signal.aborted) return;
    if (this.pumping) {
      this.again = true;
      return;
    }
    this.pumping = this.pump().finally(() => {
      this.pumping = null;
      if (this.again) {
        this.again = false;
        this.wake();
      }
    });
  }

  /** Resolves when no claim round or attempt is running (rows waiting for their retry time do not count). For tests and shutdown. */
  async settled(): Promise<void> {
    while (this.inFlight.size > 0 || this.pumping) await Promise.allSettled([...this.inFlight, this.pumping]);
  }

  /** Stops claiming, abandons running attempts without recording them (their leases settle them), closes the transports. */
  async stop(): Promise<void> {
    this.abort.abort();
    if (this.timer) clearTimeout(this.timer);
    if (this.leaseTimer) clearTimeout(this.leaseTimer);
    this.email.close();
    await this.settled();
    await this.webhooks.close();
  }

  private async keepLeases(): Promise<void> {
    try {
      await this.claims.renewLeases(Date.now(), [...this.held]);
      const settled = await this.claims.reclaimExpired(Date.now());
      if (settled.inDoubt > 0) this.log(`notification outbox: ${settled.inDoubt} deliveries handed over by a process that stopped before recording them are marked unknown (not sent again)`);
      if (settled.requeued > 0) this.wake();
      // Rows done with for longer than the retention go, a bounded batch per tick.
      await this.claims.purgeDone(Date.now());
    } catch (error) {
      this.log(`notification outbox leases: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (this.abort.signal.aborted) return;
    this.leaseTimer = setTimeout(() => void this.keepLeases(), Math.max(10, Math.floor(this.settings.leaseMs / 3)));
    this.leaseTimer.unref();
  }

  private async pump(): Promise<void> {
    let sleepMs = this.settings.pollMs;
    try {
      const claimed = await this.claims.claimDue(Date.now(), this.settings.concurrency - this.inFlight.size);
      for (const item of claimed) this.startAttempt(item);
      const next = await this.claims.nextDue();
      if (next !== null) sleepMs = Math.min(sleepMs, Math.max(0, next - Date.now()));
    } catch (error) {
      this.log(`notification outbox: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (this.abort.signal.aborted) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.wake(), sleepMs);
    this.timer.unref();
  }

  private startAttempt(item: ClaimedNotification): void {
    this.held.add(item.id);
    const running = this.attempt(item).catch(async (error: unknown) => {
      this.log(`notification delivery ${item.id} failed unexpectedly: ${error instanceof Error ? error.message : String(error)}`);
      // Given back unless handed over; else (or when the store is still away) its lease, no
      // longer renewed, settles it: pending again, or `unknown` (never sent twice).
      await this.claims.release(item.id, Date.now()).catch(() => false);
    });
    this.inFlight.add(running);
    void running.finally(() => {
      this.held.delete(item.id);
      this.inFlight.delete(running);
      // A slot is free: rows that waited for one may go.
      this.wake();
    });
  }

  private async attempt(item: ClaimedNotification): Promise<void> {
    // Read each time: a channel deleted or disabled meanwhile gets nothing more; a fixed URL is used.
    const current = await this.store.notifications.getForDelivery(item.channelId);
    if (!current || !current.channel.enabled) {
      await this.claims.finish(item.id, null, Date.now(), async () => undefined);
      this.log(`notification ${item.content.event} delivery ${item.id} dropped: channel deleted or disabled`);
      return;
    }
    if (!(await this.claims.markStarted(item.id, Date.now()))) return;
    const attemptedAt = this.now().toISOString();
    const result = current.simulated ? ({ outcome: 'skipped', error: 'demo channel: not delivered' } as const) : await this.send(current.channel, item);
    if (this.abort.signal.aborted) return;

    const maxAttempts = this.retryDelaysMs.length + 1;
    const willRetry = result.outcome === 'failed' && result.retryable && item.attempt < maxAttempts;
    const delay = this.retryDelaysMs[item.attempt - 1] ?? 0;
    const recorded = await this.claims.finish(item.id, willRetry ? Date.now() + delay : null, Date.now(), async (tx) => {
      await new DeliveryRepository(tx).record({
        deliveryId: item.id,
        organizationId: item.organizationId,
        channelId: item.channelId,
        event: item.content.event,
        attempt: item.attempt,
        outcome: result.outcome,
        willRetry,
        statusCode: result.outcome === 'skipped' ? null : result.statusCode,
        error: result.outcome === 'delivered' ? null : result.error,
        attemptedAt,
      });
    });
    if (!recorded) {
      this.log(`notification ${item.content.event} delivery ${item.id}: its claim ran out and was settled by another process; result not recorded`);
      return;
    }
    const next = willRetry ? `, retrying in ${delay} ms` : '';
    this.log(`notification ${item.content.event} to ${channelLabel(current.channel)} attempt ${item.attempt}/${maxAttempts}: ${outcomeText(result)}${next}`);
    if (willRetry) this.wake();
  }

  private send(channel: NotificationChannelRecord, delivery: ClaimedNotification): Promise<AttemptResult> {
    const headers = { 'x-porchlight-event': delivery.content.event, 'x-porchlight-delivery': delivery.id };
    if (channel.type === 'slack') {
      if (!channel.webhookUrl) return Promise.resolve({ outcome: 'skipped', error: 'channel has no webhook URL' });
      return this.webhooks.post(delivery.organizationId, channel.webhookUrl, slackMessage(delivery.content), headers, this.abort.signal);
    }
    const recipients = recipientsOf(channel.recipientEmail ?? '');
    if (recipients.length === 0) return Promise.resolve({ outcome: 'skipped', error: 'channel has no recipients' });
    return this.email.send(recipients, emailMessage(delivery.content), headers);
  }
}
