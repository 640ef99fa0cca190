import type { OrganizationEgress } from '../egress/organization-egress.ts';
import type { Cancel, Timers } from '../engine/timers.ts';
import type { NotificationChannelRecord } from '../store/notifications.ts';
import { newId } from '../../store/ids.ts';
import type { Store } from '../store/store.ts';
import type { AttemptResult } from './attempt-result.ts';
import { emailMessage } from './email-message.ts';
import { EmailTransport, recipientsOf, type SmtpSettings } from './email-transport.ts';
import type { NotificationContent } from './notification-content.ts';
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

interface Delivery {
  id: string;
  organizationId: string;
  channelId: string;
  content: NotificationContent;
}

function channelLabel(channel: NotificationChannelRecord): string {
  return `${channel.type}:${JSON.stringify(channel.name)}`;
}

function outcomeText(result: AttemptResult): string {
  if (result.outcome === 'delivered') return `delivered${result.statusCode !== null ? ` (${result.statusCode})` : ''}`;
  return `${result.outcome}: ${result.error}`;
}

/**
 * Delivers notifications in the background: each (event, channel) pair is attempted at once and retried
 * with backoff while the failure is retryable. Attempts run concurrently, so a slow or dead channel
 * never holds up another one or the API. Every attempt is recorded; no URL or message body is logged.
 */
export class DeliveryQueue {
  private readonly store: Store;
  private readonly now: () => Date;
  private readonly log: (line: string) => void;
  private readonly timers: Timers;
  private readonly retryDelaysMs: readonly number[];
  private readonly webhooks: WebhookTransport;
  private readonly email: EmailTransport;
  private readonly pendingRetries = new Set<Cancel>();
  private readonly inFlight = new Set<Promise<void>>();
  private readonly abort = new AbortController();

  constructor(deps: { store: Store; now: () => Date; log: (line: string) => void; timers: Timers }, settings: DeliverySettings) {
    this.store = deps.store;
    this.now = deps.now;
    this.log = deps.log;
    this.timers = deps.timers;
    this.retryDelaysMs = settings.retryDelaysMs;
    this.webhooks = new WebhookTransport(settings.webhookTimeoutMs, settings.egress);
    this.email = new EmailTransport(settings.smtp);
  }

  /** Queues one notification to one channel; returns at once. */
  enqueue(organizationId: string, channelId: string, content: NotificationContent): void {
    if (this.abort.signal.aborted) return;
    this.start({ id: newId('dlv'), organizationId, channelId, content }, 1);
  }

  /** Resolves when no attempt is running (retries waiting on their timer do not count). For tests and shutdown. */
  async settled(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  /** Cancels waiting retries and abandons running attempts without recording them. */
  async stop(): Promise<void> {
    this.abort.abort();
    for (const cancel of this.pendingRetries) cancel();
    this.pendingRetries.clear();
    this.email.close();
    await this.settled();
    await this.webhooks.close();
  }

  private start(delivery: Delivery, attempt: number): void {
    const running = this.attempt(delivery, attempt).catch((error: unknown) => {
      this.log(`notification delivery ${delivery.id} failed unexpectedly: ${error instanceof Error ? error.message : String(error)}`);
    });
    this.inFlight.add(running);
    void running.finally(() => this.inFlight.delete(running));
  }

  private async attempt(delivery: Delivery, attempt: number): Promise<void> {
    // Re-read each time: a channel deleted or disabled meanwhile gets nothing more; a fixed URL is used.
    const current = await this.store.notifications.getForDelivery(delivery.channelId);
    if (!current || !current.channel.enabled) {
      this.log(`notification ${delivery.content.event} delivery ${delivery.id} dropped: channel deleted or disabled`);
      return;
    }
    const attemptedAt = this.now().toISOString();
    const result = current.simulated ? ({ outcome: 'skipped', error: 'demo channel: not delivered' } as const) : await this.send(current.channel, delivery);
    if (this.abort.signal.aborted) return;

    const maxAttempts = this.retryDelaysMs.length + 1;
    const willRetry = result.outcome === 'failed' && result.retryable && attempt < maxAttempts;
    await this.store.deliveries.record({
      deliveryId: delivery.id,
      organizationId: delivery.organizationId,
      channelId: delivery.channelId,
      event: delivery.content.event,
      attempt,
      outcome: result.outcome,
      willRetry,
      statusCode: result.outcome === 'skipped' ? null : result.statusCode,
      error: result.outcome === 'delivered' ? null : result.error,
      attemptedAt,
    });
    const delay = this.retryDelaysMs[attempt - 1] ?? 0;
    const next = willRetry ? `, retrying in ${delay} ms` : '';
    this.log(`notification ${delivery.content.event} to ${channelLabel(current.channel)} attempt ${attempt}/${maxAttempts}: ${outcomeText(result)}${next}`);
    if (willRetry) this.retryLater(delivery, attempt + 1, delay);
  }

  private retryLater(delivery: Delivery, attempt: number, delayMs: number): void {
    const cancel = this.timers.after(delayMs, () => {
      this.pendingRetries.delete(cancel);
      this.start(delivery, attempt);
    });
    this.pendingRetries.add(cancel);
  }

  private send(channel: NotificationChannelRecord, delivery: Delivery): Promise<AttemptResult> {
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
