import type { Notifier } from '../events/notifier.ts';
import { maintenanceEvent, type MaintenanceEvent } from '../events/service-event.ts';
import type { Store } from '../store/store.ts';
import type { Cancel, Timers } from './timers.ts';

export interface MaintenanceClockDeps {
  store: Store;
  now: () => Date;
  log: (line: string) => void;
  notifier: Notifier;
  timers: Timers;
}

/**
 * Moves maintenance windows by their schedule: a scheduled window starts at `scheduledStart`, a window
 * in progress completes at `scheduledEnd`, each raising its event as the endpoints do. A window whose
 * whole span passed while the service was off starts and completes in the same sweep.
 * Sleeps until the next start or end (at most `maxSleepMs`); handlers call `poke` after a change.
 */
export class MaintenanceClock {
  private readonly deps: MaintenanceClockDeps;
  private readonly maxSleepMs: number;
  private cancelTimer: Cancel | null = null;
  private stopped = true;

  constructor(deps: MaintenanceClockDeps, maxSleepMs: number) {
    this.deps = deps;
    this.maxSleepMs = maxSleepMs;
  }

  start(): void {
    this.stopped = false;
    this.poke();
  }

  stop(): void {
    this.stopped = true;
    this.cancelTimer?.();
    this.cancelTimer = null;
  }

  /** Applies whatever is due now and re-arms for the next due time. */
  poke(): void {
    if (this.stopped) return;
    this.cancelTimer?.();
    try {
      for (const { organizationId, event } of this.sweep()) this.deps.notifier.emit(organizationId, event);
    } catch (error) {
      this.deps.log(`maintenance sweep failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    this.cancelTimer = this.deps.timers.after(this.sleepMs(), () => this.poke());
  }

  private sweep(): { organizationId: string; event: MaintenanceEvent }[] {
    const { store } = this.deps;
    const events: { organizationId: string; event: MaintenanceEvent }[] = [];
    store.transaction(() => {
      // Two passes: a window that was due to start and is already past its end completes right after.
      for (let pass = 0; pass < 2; pass++) {
        const at = this.deps.now();
        for (const due of store.maintenance.due(at)) {
          const window = store.maintenance.transition(due.organizationId, due.id, due.to, at);
          if (!window) continue;
          const type = due.to === 'in_progress' ? 'onMaintenanceStarted' : 'onMaintenanceCompleted';
          events.push({ organizationId: due.organizationId, event: maintenanceEvent(type, window, at, true) });
          this.deps.log(`maintenance window ${JSON.stringify(window.title)} ${due.to === 'in_progress' ? 'started' : 'completed'} by its schedule`);
        }
      }
    });
    return events;
  }

  private sleepMs(): number {
    const next = this.deps.store.maintenance.nextDueAt();
    if (next === null) return this.maxSleepMs;
    return Math.min(this.maxSleepMs, Math.max(0, Date.parse(next) - this.deps.now().getTime()));
  }
}
