import type { Region } from '../../contract/monitor.ts';
import type { CheckOutcome } from '../checks/run-check.ts';
import { incidentEvent, type ServiceEvent } from '../events/service-event.ts';
import type { CheckRecord } from '../store/checks.ts';
import type { Notifier } from '../events/notifier.ts';
import type { Store } from '../store/store.ts';
import { openAutoIncident, resolveAutoIncident } from './auto-incidents.ts';
import { nextHealth } from './health-transition.ts';

export interface RecordContext {
  store: Store;
  now: () => Date;
  failureThreshold: number;
  /** Given: the events are queued in the notification outbox inside the recording transaction (call its wake() after). */
  notifier?: Notifier;
}

export interface RecordedCheck {
  check: CheckRecord;
  organizationId: string;
  monitorName: string;
  transition: 'down' | 'recovered' | null;
  /** In order; already queued when the context had a notifier, else to emit after the transaction committed. */
  events: ServiceEvent[];
}

/**
 * Stores one finished check and its consequences in one transaction: the check row, the monitor's
 * latest status and debounced health, and the automatic incident it opens or resolves.
 * Monitors that are paused or under maintenance raise no down/recovered events and open no incidents;
 * a recovery still resolves the incident the engine opened. Returns null when the monitor is gone.
 */
export async function recordCheckOutcome(
  context: RecordContext,
  monitorId: string,
  input: { region: Region; checkedAt: string; outcome: CheckOutcome },
): Promise<RecordedCheck | null> {
  const { store } = context;
  return await store.transaction(async (tx) => {
    // One recording at a time per monitor, across processes: the state read below is the latest.
    if (!(await tx.monitors.lock(monitorId))) return null;
    const state = await tx.monitors.getState(monitorId);
    if (!state) return null;
    const { monitor, organizationId } = state;
    const at = context.now();
    const check = await tx.checks.insert({
      monitorId,
      status: input.outcome.status,
      latency: Math.max(0, Math.round(input.outcome.latencyMs)),
      statusCode: input.outcome.statusCode,
      region: input.region,
      checkedAt: input.checkedAt,
      error: input.outcome.error,
    });
    const step = nextHealth(state, check.status, context.failureThreshold);
    await tx.monitors.recordCheck(monitorId, { status: check.status, latency: check.latency, checkedAt: check.checkedAt, ...step });

    const events: ServiceEvent[] = [];
    const alerting = monitor.currentStatus !== 'paused' && monitor.currentStatus !== 'maintenance';
    const eventCheck = { id: check.id, region: check.region, latency: check.latency, statusCode: check.statusCode, error: check.error, checkedAt: check.checkedAt };
    const about = { id: monitor.id, name: monitor.name, type: monitor.type };
    if (step.transition === 'down' && alerting) {
      events.push({ type: 'onMonitorDown', at: at.toISOString(), monitor: about, check: eventCheck, consecutiveFailures: step.consecutiveFailures });
      if (monitor.autoIncidents) {
        const incident = await openAutoIncident(tx, organizationId, monitor, check, step.consecutiveFailures, at);
        if (incident) events.push(incidentEvent('onIncidentCreated', incident, at, true));
      }
    }
    if (step.transition === 'recovered') {
      if (alerting) events.push({ type: 'onMonitorRecovered', at: at.toISOString(), monitor: about, check: eventCheck, consecutiveFailures: 0 });
      const resolved = await resolveAutoIncident(tx, organizationId, monitor, check, at);
      if (resolved) events.push(incidentEvent('onIncidentResolved', resolved, at, true));
    }
    // Queued with the change that raised them: a crash after the commit loses no notification.
    if (context.notifier) for (const event of events) await context.notifier.raiseIn(tx, organizationId, event);
    return { check, organizationId, monitorName: monitor.name, transition: step.transition, events };
  });
}
