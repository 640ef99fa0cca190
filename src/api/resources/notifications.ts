/**
 * /notifications: notification channels. `get` uses GET /notifications/:id, an extension
 * of the embedded service (the spec does not say whether channels can be fetched singly).
 */
import type { CreateChannelInput, NotificationChannel, UpdateChannelInput } from '../../contract/index.ts';
import { notificationChannelCodec } from '../codecs.ts';
import type { Requester } from '../requester.ts';
import { crudResource, type CrudResource } from './crud.ts';

export type NotificationsResource = CrudResource<NotificationChannel, CreateChannelInput, UpdateChannelInput>;

export function notificationsResource(requester: Requester): NotificationsResource {
  return crudResource(requester, notificationChannelCodec, '/notifications');
}
