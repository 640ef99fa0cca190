import { z } from 'zod';
import { addTargetIssues, createMonitorSchema, MONITOR_TYPES, updateMonitorSchema } from '../../contract/monitor.ts';
import type { ServiceDeps } from '../deps.ts';
import { LimitReachedError, NotFoundError } from '../http/errors.ts';
import { created, found, listReply, noContent, ok, pathParam, type Route } from '../http/route.ts';
import { parseInput, rejectImmutableField } from '../http/validation.ts';
import type { MonitorChanges, MonitorRecord } from '../store/monitors.ts';
import { rejectRefusedTargets } from './egress-fields.ts';
import { listPage } from './shared.ts';

/** Spec limit: monitors per organization. */
export const MAX_MONITORS_PER_ORGANIZATION = 50;

/** The merged monitor after a PATCH must still have the target its type needs. */
const targetSchema = z
  .object({
    type: z.enum(MONITOR_TYPES),
    url: z.string().optional(),
    host: z.string().optional(),
    port: z.number().optional(),
  })
  .superRefine(addTargetIssues);

/** The spec's create response carries only these fields. */
function createdSubset(monitor: MonitorRecord) {
  const { id, name, type, active, interval, url, regions } = monitor;
  return { id, name, type, active, interval, url, regions };
}

export function monitorRoutes({ store, now, engine, egress }: ServiceDeps): Route[] {
  return [
    {
      method: 'GET',
      path: '/monitors',
      body: false,
      handle: async (context) => {
        const page = listPage(context);
        return listReply(await store.monitors.list(context.organizationId, page), await store.monitors.count(context.organizationId), page);
      },
    },
    {
      method: 'GET',
      path: '/monitors/:id',
      body: false,
      handle: async (context) => ok(found(await store.monitors.get(context.organizationId, pathParam(context, 'id')), 'monitor')),
    },
    {
      method: 'POST',
      path: '/monitors',
      body: true,
      handle: async (context) => {
        const input = parseInput(createMonitorSchema, context.body, 'body');
        rejectRefusedTargets(egress.for(context.organizationId), { url: input.url, host: input.host, port: input.type === 'tcp' ? input.port : null });
        const monitor = await store.transaction(async (tx) => {
          // One creation at a time per organization, across processes: the count below includes every committed one.
          await tx.organizations.lock(context.organizationId);
          if (await tx.monitors.count(context.organizationId) >= MAX_MONITORS_PER_ORGANIZATION) {
            throw new LimitReachedError(`an organization can have at most ${MAX_MONITORS_PER_ORGANIZATION} monitors`);
          }
          return await tx.monitors.insert(context.organizationId, input, now());
        });
        engine.monitorChanged(monitor.id);
        return created(createdSubset(monitor));
      },
    },
    {
      method: 'PATCH',
      path: '/monitors/:id',
      body: true,
      handle: async (context) => {
        rejectImmutableField(context.body, 'type', 'type cannot be changed; create a new monitor instead');
        const changes: MonitorChanges = parseInput(updateMonitorSchema, context.body, 'body');
        const id = pathParam(context, 'id');
        const monitor = await store.transaction(async (tx) => {
          const existing = found(await tx.monitors.get(context.organizationId, id), 'monitor');
          const target = parseInput(
            targetSchema,
            {
              type: existing.type,
              url: (changes.url === undefined ? existing.url : changes.url) ?? undefined,
              host: (changes.host === undefined ? existing.host : changes.host) ?? undefined,
              port: (changes.port === undefined ? existing.port : changes.port) ?? undefined,
            },
            'body',
          );
          // A new target is judged as a created one would be (a port change too: a TCP target is host and port).
          if (changes.url !== undefined || changes.host !== undefined || changes.port !== undefined) {
            rejectRefusedTargets(egress.for(context.organizationId), { url: target.url, host: target.host, port: target.type === 'tcp' ? target.port : null });
          }
          // A resumed monitor has not been checked since it was paused.
          const resumed = changes.active === true && !existing.active;
          return found(
            await tx.monitors.update(context.organizationId, id, resumed ? { ...changes, health: 'pending' } : changes, now()),
            'monitor',
          );
        });
        // Pausing stops the monitor's checks at once; resuming or a new interval reschedules them.
        engine.monitorChanged(id);
        return ok(monitor);
      },
    },
    {
      method: 'DELETE',
      path: '/monitors/:id',
      body: false,
      handle: async (context) => {
        const id = pathParam(context, 'id');
        const deleted = await store.transaction(async (tx) => await tx.monitors.delete(context.organizationId, id));
        if (!deleted) throw new NotFoundError('monitor');
        engine.monitorChanged(id);
        return noContent();
      },
    },
  ];
}
