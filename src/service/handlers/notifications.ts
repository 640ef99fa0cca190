import { z } from 'zod';
import { addChannelTargetIssues, CHANNEL_TYPES, createChannelSchema, updateChannelSchema } from '../../contract/notification.ts';
import type { ServiceDeps } from '../deps.ts';
import { NotFoundError } from '../http/errors.ts';
import { created, found, listReply, noContent, ok, pathParam, type Route } from '../http/route.ts';
import { parseInput, rejectImmutableField } from '../http/validation.ts';
import { rejectRefusedTargets } from './egress-fields.ts';
import { listPage } from './shared.ts';

/** After a PATCH the channel must still have the target its type needs. */
const targetSchema = z
  .object({ type: z.enum(CHANNEL_TYPES), webhookUrl: z.string().nullable(), recipientEmail: z.string().nullable() })
  .superRefine(addChannelTargetIssues);

export function notificationRoutes({ store, now, egress }: ServiceDeps): Route[] {
  return [
    {
      method: 'GET',
      path: '/notifications',
      body: false,
      handle: async (context) => {
        const page = listPage(context);
        return listReply(await store.notifications.list(context.organizationId, page), await store.notifications.count(context.organizationId), page);
      },
    },
    {
      // Extension: the spec does not say whether one channel can be fetched.
      method: 'GET',
      path: '/notifications/:id',
      body: false,
      handle: async (context) => ok(found(await store.notifications.get(context.organizationId, pathParam(context, 'id')), 'notification channel')),
    },
    {
      method: 'POST',
      path: '/notifications',
      body: true,
      handle: async (context) => {
        const input = parseInput(createChannelSchema, context.body, 'body');
        rejectRefusedTargets(egress.for(context.organizationId), { webhookUrl: input.webhookUrl });
        return created(await store.transaction(async (tx) => await tx.notifications.insert(context.organizationId, input, now())));
      },
    },
    {
      method: 'PATCH',
      path: '/notifications/:id',
      body: true,
      handle: async (context) => {
        rejectImmutableField(context.body, 'type', 'type cannot be changed; create a new channel instead');
        const changes = parseInput(updateChannelSchema, context.body, 'body');
        rejectRefusedTargets(egress.for(context.organizationId), { webhookUrl: changes.webhookUrl });
        const id = pathParam(context, 'id');
        const channel = await store.transaction(async (tx) => {
          const existing = found(await tx.notifications.get(context.organizationId, id), 'notification channel');
          parseInput(
            targetSchema,
            {
              type: existing.type,
              webhookUrl: changes.webhookUrl === undefined ? existing.webhookUrl : changes.webhookUrl,
              recipientEmail: changes.recipientEmail === undefined ? existing.recipientEmail : changes.recipientEmail,
            },
            'body',
          );
          return found(await tx.notifications.update(context.organizationId, id, changes, now()), 'notification channel');
        });
        return ok(channel);
      },
    },
    {
      method: 'DELETE',
      path: '/notifications/:id',
      body: false,
      handle: async (context) => {
        const deleted = await store.transaction(async (tx) => await tx.notifications.delete(context.organizationId, pathParam(context, 'id')));
        if (!deleted) throw new NotFoundError('notification channel');
        return noContent();
      },
    },
  ];
}
