import type { QueuedNotification } from '../store/notification-outbox.ts';
import type { Repositories, Store } from '../store/store.ts';
import type { DeliveryQueue } from './delivery-queue.ts';
import { notificationContent, pageChangedContent } from './notification-content.ts';
import type { NotificationContent } from './notification-content.ts';
import { eventKey, eventSubject, type PageChangedEvent, type ServiceEvent } from './service-event.ts';

/**
 * Fans an event out to the organization's enabled channels whose flag for it is set: one row per
 * (event, channel) in the shared notification outbox, keyed by the event (a second raise of the
 * same event queues nothing), then wakes this process's sender. Without a sender (delivery
 * switched off) it only logs. Log lines name channels, never their webhook URL or addresses.
 */
export class Notifier {
  private readonly store: Store;
  private readonly log: (line: string) => void;
  private readonly deliveries: DeliveryQueue | null;

  constructor(store: Store, log: (line: string) => void, deliveries: DeliveryQueue | null = null) {
    this.store = store;
    this.log = log;
    this.deliveries = deliveries;
  }

  /**
   * Routes an event raised outside any transaction (the queued rows commit on their own). Returns
   * the ids of the channels it was routed to. Never throws: an event must not fail a request.
   */
  async emit(organizationId: string, event: ServiceEvent): Promise<string[]> {
    try {
      const routed = await this.route(this.store, organizationId, event);
      this.wake();
      return routed;
    } catch (error) {
      this.log(`event ${event.type} could not be routed: ${error instanceof Error ? error.message : String(error)}`);
      return [];
    }
  }

  /**
   * Queues an event inside the transaction of the state change that raised it, so that the change
   * and its notifications commit together (or neither does). Throws as the transaction's other
   * statements do. Call wake() once the transaction has committed.
   */
  async raiseIn(tx: Repositories, organizationId: string, event: ServiceEvent): Promise<string[]> {
    return this.route(tx, organizationId, event);
  }

  /** Tells this process's sender that rows were queued. */
  wake(): void {
    this.deliveries?.wake();
  }

  private async route(repositories: Repositories, organizationId: string, event: ServiceEvent): Promise<string[]> {
    const channels = await repositories.notifications.subscribedTo(organizationId, event.type);
    if (channels.length === 0) return [];
    const names = channels.map((channel) => `${channel.type}:${JSON.stringify(channel.name)}`).join(', ');
    const note = this.deliveries ? '' : ' [not delivered: delivery switched off]';
    this.log(`event ${event.type} (${JSON.stringify(eventSubject(event))}) routed to ${names}${note}`);
    if (this.deliveries) {
      const organization = (await repositories.organizations.get(organizationId))?.name ?? organizationId;
      await this.queue(repositories, organizationId, eventKey(event), notificationContent(event, organization), channels.map((channel) => channel.id));
    }
    return channels.map((channel) => channel.id);
  }

  /**
   * Tells the organization's Porchlight push channels that a status page changed (nothing in the
   * spec announces that; a site would otherwise see it only at its next read of the pages list).
   * Never throws, like emit.
   */
  async announcePageChange(organizationId: string, event: PageChangedEvent): Promise<string[]> {
    try {
      const channels = await this.store.notifications.pushChannels(organizationId);
      if (channels.length === 0 || !this.deliveries) return [];
      const organization = (await this.store.organizations.get(organizationId))?.name ?? organizationId;
      await this.queue(this.store, organizationId, eventKey(event), pageChangedContent(event, organization), channels.map((channel) => channel.id));
      this.wake();
      return channels.map((channel) => channel.id);
    } catch (error) {
      this.log(`event ${event.type} could not be routed: ${error instanceof Error ? error.message : String(error)}`);
      return [];
    }
  }

  private async queue(repositories: Repositories, organizationId: string, key: string, content: NotificationContent, channelIds: readonly string[]): Promise<void> {
    const rows: QueuedNotification[] = channelIds.map((channelId) => ({ dedupeKey: `${key}|${channelId}`, organizationId, channelId, content }));
    await repositories.notificationOutbox.queue(rows, Date.now());
  }
}
