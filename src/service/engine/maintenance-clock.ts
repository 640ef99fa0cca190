import type { Notifier } from '../events/notifier.ts';
import { maintenanceEvent } from '../events/service-event.ts';
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
  private sweeping: Promise<void> = Promise.resolve();

  constructor(deps: MaintenanceClockDeps, maxSleepMs: number) {
    this.deps = deps;
    this.maxSleepMs = maxSleepMs;
  }

  /** Resolves after the first sweep. */
  start(): Promise<void> {
    this.stopped = false;
    return this.poke();
  }

  stop(): void {
    this.stopped = true;
    this.cancelTimer?.();
    this.cancelTimer = null;
  }

  /** Applies whatever is due now and re-arms for the next due time; one sweep at a time, in turn. */
  poke(): Promise<void> {
    const next = this.sweeping.then(() => this.sweepAndArm());
    this.sweeping = next;
    return next;
  }

  private async sweepAndArm(): Promise<void> {
    if (this.stopped) return;
    this.cancelTimer?.();
    let sleepMs = this.maxSleepMs;
    try {
      await this.sweep();
      this.deps.notifier.wake();
      sleepMs = await this.sleepMs();
    } catch (error) {
      this.deps.log(`maintenance sweep failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (this.stopped) return;
    this.cancelTimer?.();
    this.cancelTimer = this.deps.timers.after(sleepMs, () => void this.poke());
  }

  /** Moves every due window, each event queued in the outbox with its move. */
  private async sweep(): Promise<void> {
    const { store } = this.deps;
    await store.transaction(async (tx) => {
      // Two passes: a window that was due to start and is already past its end completes right after.
      for (let pass = 0; pass < 2; pass++) {
        const at = this.deps.now();
        for (const due of await tx.maintenance.due(at)) {
          // Guarded by the state it was due from: another process that moved it first leaves nothing to do here.
          const window = await tx.maintenance.transition(due.organizationId, due.id, due.to, at, due.to === 'in_progress' ? 'scheduled' : 'in_progress');
          if (!window) continue;
          const type = due.to === 'in_progress' ? 'onMaintenanceStarted' : 'onMaintenanceCompleted';
          // Queued with the transition: of two processes, the one that moved it queues its event.
          await this.deps.notifier.raiseIn(tx, due.organizationId, maintenanceEvent(type, window, at, true));
          this.deps.log(`maintenance window ${JSON.stringify(window.title)} ${due.to === 'in_progress' ? 'started' : 'completed'} by its schedule`);
        }
      }
    });
  }

  private async sleepMs(): Promise<number> {
    const next = await this.deps.store.maintenance.nextDueAt();
    if (next === null) return this.maxSleepMs;
    return Math.min(this.maxSleepMs, Math.max(0, Date.parse(next) - this.deps.now().getTime()));
  }
}
