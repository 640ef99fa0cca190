import { createMaintenanceSchema, updateMaintenanceSchema, windowSpanProblem, type MaintenanceStatus } from '../../contract/maintenance.ts';
import type { ServiceDeps } from '../deps.ts';
import { maintenanceEvent, type MaintenanceEvent } from '../events/service-event.ts';
import { InvalidStateError, NotFoundError, ValidationError } from '../http/errors.ts';
import { created, found, listReply, noContent, ok, pathParam, type RequestContext, type Route } from '../http/route.ts';
import { parseInput } from '../http/validation.ts';
import type { MaintenanceChanges, MaintenanceRecord, MaintenanceTransition } from '../store/maintenance.ts';
import type { Repositories } from '../store/store.ts';
import { listPage, requireOwnedMonitors, toUtcIso } from './shared.ts';

/** The state machine: each action, the one state it starts from, where it leads, what it announces. */
const TRANSITIONS: Record<'start' | 'complete' | 'cancel', { from: MaintenanceStatus; to: MaintenanceTransition; event: MaintenanceEvent['type'] | null }> = {
  start: { from: 'scheduled', to: 'in_progress', event: 'onMaintenanceStarted' },
  complete: { from: 'in_progress', to: 'completed', event: 'onMaintenanceCompleted' },
  // The spec names no event for cancellation and no channel flag exists for it, so none is sent.
  cancel: { from: 'scheduled', to: 'cancelled', event: null },
};

function requireScheduled(window: MaintenanceRecord, action: string): void {
  if (window.status !== 'scheduled') {
    throw new InvalidStateError(`only scheduled maintenance windows can be ${action}; this one is ${window.status}`);
  }
}

async function ownWindow(store: Repositories, context: RequestContext): Promise<MaintenanceRecord> {
  return found(await store.maintenance.get(context.organizationId, pathParam(context, 'id')), 'maintenance window');
}

export function maintenanceRoutes({ store, now, notifier, engine }: ServiceDeps): Route[] {
  const transitionRoute = (action: keyof typeof TRANSITIONS): Route => ({
    method: 'POST',
    path: `/maintenance/:id/${action}`,
    body: false,
    handle: async (context) => {
      const { from, to, event } = TRANSITIONS[action];
      const window = await store.transaction(async (tx) => {
        const existing = await ownWindow(tx, context);
        if (existing.status !== from) {
          throw new InvalidStateError(`cannot ${action} a maintenance window that is ${existing.status}; it must be ${from}`);
        }
        // Guarded by `from`: a process that moved it since the read above leaves nothing to move.
        const moved = await tx.maintenance.transition(context.organizationId, existing.id, to, now(), from);
        if (!moved) {
          const current = await ownWindow(tx, context);
          throw new InvalidStateError(`cannot ${action} a maintenance window that is ${current.status}; it must be ${from}`);
        }
        if (event) await notifier.raiseIn(tx, context.organizationId, maintenanceEvent(event, moved, now()));
        return moved;
      });
      notifier.wake();
      engine.maintenanceChanged();
      return ok(window);
    },
  });

  return [
    {
      method: 'GET',
      path: '/maintenance',
      body: false,
      handle: async (context) => {
        const page = listPage(context);
        return listReply(await store.maintenance.list(context.organizationId, page), await store.maintenance.count(context.organizationId), page);
      },
    },
    {
      method: 'GET',
      path: '/maintenance/:id',
      body: false,
      handle: async (context) => ok(await ownWindow(store, context)),
    },
    {
      method: 'POST',
      path: '/maintenance',
      body: true,
      handle: async (context) => {
        const input = parseInput(createMaintenanceSchema, context.body, 'body');
        const window = await store.transaction(async (tx) => {
          await requireOwnedMonitors(tx, context.organizationId, input.monitorIds, (index) => `monitorIds.${index}`);
          const window = await tx.maintenance.insert(
            context.organizationId,
            {
              title: input.title,
              description: input.description ?? null,
              scheduledStart: toUtcIso(input.scheduledStart),
              scheduledEnd: toUtcIso(input.scheduledEnd),
              monitorIds: input.monitorIds,
            },
            now(),
          );
          await notifier.raiseIn(tx, context.organizationId, maintenanceEvent('onMaintenanceScheduled', window, now()));
          return window;
        });
        notifier.wake();
        // A window whose start has already come is started right away by the engine.
        engine.maintenanceChanged();
        return created(window);
      },
    },
    {
      method: 'PATCH',
      path: '/maintenance/:id',
      body: true,
      handle: async (context) => {
        const input = parseInput(updateMaintenanceSchema, context.body, 'body');
        const window = await store.transaction(async (tx) => {
          // Locked first: a start or cancel by another process cannot slip between the check and the write.
          await tx.maintenance.lock(context.organizationId, pathParam(context, 'id'));
          const existing = await ownWindow(tx, context);
          requireScheduled(existing, 'updated');
          const changes: MaintenanceChanges = {
            ...(input.title !== undefined && { title: input.title }),
            ...(input.description !== undefined && { description: input.description }),
            ...(input.scheduledStart !== undefined && { scheduledStart: toUtcIso(input.scheduledStart) }),
            ...(input.scheduledEnd !== undefined && { scheduledEnd: toUtcIso(input.scheduledEnd) }),
            ...(input.monitorIds !== undefined && { monitorIds: input.monitorIds }),
          };
          const problem = windowSpanProblem(changes.scheduledStart ?? existing.scheduledStart, changes.scheduledEnd ?? existing.scheduledEnd);
          if (problem !== null) throw new ValidationError([{ path: 'scheduledEnd', message: problem }]);
          if (changes.monitorIds) await requireOwnedMonitors(tx, context.organizationId, changes.monitorIds, (index) => `monitorIds.${index}`);
          return found(await tx.maintenance.update(context.organizationId, existing.id, changes, now()), 'maintenance window');
        });
        engine.maintenanceChanged();
        return ok(window);
      },
    },
    {
      method: 'DELETE',
      path: '/maintenance/:id',
      body: false,
      handle: async (context) => {
        await store.transaction(async (tx) => {
          await tx.maintenance.lock(context.organizationId, pathParam(context, 'id'));
          const existing = await ownWindow(tx, context);
          requireScheduled(existing, 'deleted');
          if (!await tx.maintenance.delete(context.organizationId, existing.id)) throw new NotFoundError('maintenance window');
        });
        return noContent();
      },
    },
    transitionRoute('start'),
    transitionRoute('complete'),
    transitionRoute('cancel'),
  ];
}
