/**
 * Porchlight's own chat channel in the organization, through the typed client: the channel that
 * carries every event to the push route. Found by its URL or, when the URL changed (another
 * token, port or public address), by its name; created only when neither matches, so restarts
 * never add a second one. It is kept enabled with all eight event flags on.
 */
import type { NotificationChannel, NotificationsResource } from '../../api/index.ts';
import { EVENT_FLAGS, type EventFlag } from '../../contract/index.ts';

export interface PushChannelSpec {
  name: string;
  webhookUrl: string;
}

export type PushChannelOutcome = 'created' | 'updated' | 'unchanged';

const ALL_FLAGS = Object.fromEntries(EVENT_FLAGS.map((flag) => [flag, true])) as Record<EventFlag, true>;

async function findOurs(notifications: NotificationsResource, spec: PushChannelSpec): Promise<NotificationChannel | null> {
  let byName: NotificationChannel | null = null;
  for await (const channel of notifications.listAll()) {
    if (channel.type !== 'slack') continue;
    if (channel.webhookUrl === spec.webhookUrl) return channel;
    if (byName === null && channel.name === spec.name) byName = channel;
  }
  return byName;
}

export async function ensurePushChannel(notifications: NotificationsResource, spec: PushChannelSpec): Promise<{ outcome: PushChannelOutcome; id: string }> {
  const found = await findOurs(notifications, spec);
  const wanted = { name: spec.name, webhookUrl: spec.webhookUrl, enabled: true, ...ALL_FLAGS };
  if (found === null) {
    const created = await notifications.create({ type: 'slack', ...wanted });
    return { outcome: 'created', id: created.id };
  }
  // A field the API leaves out counts as different: sending it again is harmless.
  const changes = Object.fromEntries(Object.entries(wanted).filter(([field, value]) => found[field as keyof NotificationChannel] !== value));
  if (Object.keys(changes).length === 0) return { outcome: 'unchanged', id: found.id };
  await notifications.update(found.id, changes);
  return { outcome: 'updated', id: found.id };
}
