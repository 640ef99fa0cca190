import type { ServiceDeps } from '../deps.ts';
import { created, found, listReply, pathParam, type Route } from '../http/route.ts';
import type { MonitorRecord } from '../store/monitors.ts';
import type { CheckTarget } from '../checks/run-check.ts';
import { checkListPage } from './shared.ts';

function targetOf(monitor: MonitorRecord): CheckTarget {
  return {
    type: monitor.type,
    url: monitor.url,
    host: monitor.host,
    port: monitor.port,
    method: monitor.method,
    headers: monitor.headers,
    body: monitor.body,
    timeoutSeconds: monitor.timeout,
    rules: monitor.rules,
  };
}

/** Check history and on-demand checks of a monitor. */
export function checkRoutes({ store, now, notifier, runCheck }: ServiceDeps): Route[] {
  return [
    {
      method: 'GET',
      path: '/monitors/:id/checks',
      body: false,
      handle: (context) => {
        const page = checkListPage(context);
        const monitor = found(store.monitors.get(context.organizationId, pathParam(context, 'id')), 'monitor');
        return listReply(store.checks.list(monitor.id, page), store.checks.count(monitor.id), page);
      },
    },
    {
      method: 'POST',
      path: '/monitors/:id/run',
      body: false,
      handle: async (context) => {
        const id = pathParam(context, 'id');
        const monitor = found(store.monitors.get(context.organizationId, id), 'monitor');
        const checkedAt = now().toISOString();
        const outcome = await runCheck(targetOf(monitor));
        const { check, before } = store.transaction(() => {
          // Re-read: the monitor may have been deleted or changed while the check ran.
          const current = found(store.monitors.get(context.organizationId, id), 'monitor');
          const latency = Math.max(0, Math.round(outcome.latencyMs));
          const check = store.checks.insert({
            monitorId: id,
            status: outcome.status,
            latency,
            statusCode: outcome.statusCode,
            region: current.regions[0] ?? 'eu',
            checkedAt,
            error: outcome.error,
          });
          store.monitors.recordCheck(id, { status: outcome.status, latency, checkedAt });
          return { check, before: current };
        });
        // Paused monitors and monitors under maintenance are excluded from alerting.
        if (before.currentStatus !== 'paused' && before.currentStatus !== 'maintenance') {
          if (outcome.status === 'down' && before.lastStatus !== 'down') notifier.emit(context.organizationId, 'onMonitorDown', before.name);
          if (outcome.status === 'up' && before.lastStatus === 'down') notifier.emit(context.organizationId, 'onMonitorRecovered', before.name);
        }
        return created(check);
      },
    },
  ];
}
