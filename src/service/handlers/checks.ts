import type { ServiceDeps } from '../deps.ts';
import { checkTargetOf } from '../engine/check-target.ts';
import { recordCheckOutcome } from '../engine/record-check.ts';
import { InvalidStateError, NotFoundError } from '../http/errors.ts';
import { created, found, listReply, pathParam, type Route } from '../http/route.ts';
import { checkListPage } from './shared.ts';

/** Check history and on-demand checks of a monitor. */
export function checkRoutes({ store, now, notifier, runCheck, failureThreshold }: ServiceDeps): Route[] {
  return [
    {
      method: 'GET',
      path: '/monitors/:id/checks',
      body: false,
      handle: async (context) => {
        const page = checkListPage(context);
        const monitor = found(await store.monitors.get(context.organizationId, pathParam(context, 'id')), 'monitor');
        return listReply(await store.checks.list(monitor.id, page), await store.checks.count(monitor.id), page);
      },
    },
    {
      method: 'POST',
      path: '/monitors/:id/run',
      body: false,
      handle: async (context) => {
        const id = pathParam(context, 'id');
        const monitor = found(await store.monitors.get(context.organizationId, id), 'monitor');
        // Demo monitors with made-up hosts are never contacted, not even on demand (no demo traffic leaves the machine).
        if ((await store.monitors.getState(id))?.simulated) {
          throw new InvalidStateError('this demo monitor has a made-up target and is not checked; give it a real url or host first');
        }
        const checkedAt = now().toISOString();
        const outcome = await runCheck(context.organizationId, checkTargetOf(monitor));
        // An on-demand check counts like a scheduled one: same threshold, events and automatic incidents.
        const recorded = await recordCheckOutcome({ store, now, failureThreshold, notifier }, id, { region: monitor.regions[0] ?? 'eu', checkedAt, outcome });
        // The monitor may have been deleted while the check ran.
        if (!recorded) throw new NotFoundError('monitor');
        notifier.wake();
        return created(recorded.check);
      },
    },
  ];
}
