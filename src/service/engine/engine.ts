import { MaintenanceClock, type MaintenanceClockDeps } from './maintenance-clock.ts';
import { Scheduler, type SchedulerDeps, type SchedulerSettings } from './scheduler.ts';

/** What the HTTP handlers tell the engine after a committed change, so it does not have to poll. */
export interface EngineHooks {
  /** A monitor was created, edited, paused, resumed or deleted. */
  monitorChanged(monitorId: string): void;
  /** A maintenance window was created, edited, deleted or moved by an endpoint. */
  maintenanceChanged(): void;
}

/** Hooks of a service that runs no engine (`scheduler: false`). */
export const NO_ENGINE: EngineHooks = {
  monitorChanged: () => undefined,
  maintenanceChanged: () => undefined,
};

export type EngineDeps = SchedulerDeps & MaintenanceClockDeps;

export interface EngineSettings extends SchedulerSettings {
  /** Longest sleep of the maintenance clock between sweeps. */
  maintenanceSweepMs: number;
}

/** The monitoring engine: scheduled checks and the maintenance clock, started and stopped together. */
export class MonitoringEngine implements EngineHooks {
  readonly scheduler: Scheduler;
  readonly maintenance: MaintenanceClock;

  constructor(deps: EngineDeps, settings: EngineSettings) {
    this.scheduler = new Scheduler(deps, settings);
    this.maintenance = new MaintenanceClock(deps, settings.maintenanceSweepMs);
  }

  /** Resolves once both have read the database for the first time. */
  async start(): Promise<void> {
    await Promise.all([this.maintenance.start(), this.scheduler.start()]);
  }

  stop(): void {
    this.scheduler.stop();
    this.maintenance.stop();
  }

  monitorChanged(monitorId: string): void {
    void this.scheduler.sync(monitorId);
  }

  maintenanceChanged(): void {
    void this.maintenance.poke();
  }
}
