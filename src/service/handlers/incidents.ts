import { createIncidentSchema, updateIncidentSchema } from '../../contract/incident.ts';
import type { ServiceDeps } from '../deps.ts';
import { incidentEvent } from '../events/service-event.ts';
import { NotFoundError } from '../http/errors.ts';
import { created, found, listReply, noContent, ok, pathParam, type Route } from '../http/route.ts';
import { parseInput } from '../http/validation.ts';
import { listPage, requireOwnedMonitors } from './shared.ts';

export function incidentRoutes({ store, now, notifier }: ServiceDeps): Route[] {
  return [
    {
      method: 'GET',
      path: '/incidents',
      body: false,
      handle: async (context) => {
        const page = listPage(context);
        return listReply(await store.incidents.list(context.organizationId, page), await store.incidents.count(context.organizationId), page);
      },
    },
    {
      method: 'GET',
      path: '/incidents/:id',
      body: false,
      handle: async (context) => ok(found(await store.incidents.get(context.organizationId, pathParam(context, 'id')), 'incident')),
    },
    {
      method: 'POST',
      path: '/incidents',
      body: true,
      handle: async (context) => {
        const input = parseInput(createIncidentSchema, context.body, 'body');
        const incident = await store.transaction(async (tx) => {
          await requireOwnedMonitors(tx, context.organizationId, input.monitorIds, (index) => `monitorIds.${index}`);
          const incident = await tx.incidents.insert(context.organizationId, input, now());
          await notifier.raiseIn(tx, context.organizationId, incidentEvent('onIncidentCreated', incident, now()));
          return incident;
        });
        notifier.wake();
        return created(incident);
      },
    },
    {
      method: 'PATCH',
      path: '/incidents/:id',
      body: true,
      handle: async (context) => {
        const input = parseInput(updateIncidentSchema, context.body, 'body');
        const id = pathParam(context, 'id');
        const incident = await store.transaction(async (tx) => {
          // Locked first: of two updates at once, only the first sees it unresolved (one "resolved" event).
          if (!(await tx.incidents.lock(context.organizationId, id))) throw new NotFoundError('incident');
          const before = found(await tx.incidents.get(context.organizationId, id), 'incident');
          const incident = found(await tx.incidents.addUpdate(context.organizationId, id, input, now()), 'incident');
          const resolvedNow = incident.status === 'resolved' && before.status !== 'resolved';
          await notifier.raiseIn(tx, context.organizationId, incidentEvent(resolvedNow ? 'onIncidentResolved' : 'onIncidentUpdated', incident, now()));
          return incident;
        });
        notifier.wake();
        return ok(incident);
      },
    },
    {
      method: 'DELETE',
      path: '/incidents/:id',
      body: false,
      handle: async (context) => {
        const deleted = await store.transaction(async (tx) => await tx.incidents.delete(context.organizationId, pathParam(context, 'id')));
        if (!deleted) throw new NotFoundError('incident');
        return noContent();
      },
    },
  ];
}
