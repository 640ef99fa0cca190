import type { EventFlag } from '../../contract/notification.ts';
import type { Store } from '../store/store.ts';

/**
 * Fans an event out to the organization's enabled channels that subscribed to it.
 * The embedded service has no outbound delivery (no webhook or mail transport): it logs
 * which channels would receive the event, naming channels only (webhook URLs can be secrets).
 */
export class Notifier {
  private readonly store: Store;
  private readonly log: (line: string) => void;

  constructor(store: Store, log: (line: string) => void) {
    this.store = store;
    this.log = log;
  }

  /** Returns the ids of the channels that the event was routed to. */
  emit(organizationId: string, event: EventFlag, subject: string): string[] {
    const channels = this.store.notifications.subscribedTo(organizationId, event);
    if (channels.length > 0) {
      const names = channels.map((channel) => `${channel.type}:${JSON.stringify(channel.name)}`).join(', ');
      this.log(`event ${event} (${JSON.stringify(subject)}) routed to ${names} [not delivered: no transport configured]`);
    }
    return channels.map((channel) => channel.id);
  }
}
