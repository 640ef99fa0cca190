import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Region } from '../../contract/monitor.ts';
import { withDeadline } from '../checks/deadline.ts';
import { timeoutMessage } from '../checks/describe-network-error.ts';
import type { CheckOutcome, CheckTarget } from '../checks/run-check.ts';
import type { Notifier } from '../events/notifier.ts';
import type { SchedulableMonitor } from '../store/monitors.ts';
import type { Store } from '../store/store.ts';
import { checkTargetOf } from './check-target.ts';
import { FairLimiter } from './limiter.ts';
import { recordCheckOutcome } from './record-check.ts';
import type { Cancel, Timers } from './timers.ts';

export interface SchedulerDeps {
  store: Store;
  now: () => Date;
  log: (line: string) => void;
  notifier: Notifier;
  runCheck: (organizationId: string, target: CheckTarget) => Promise<CheckOutcome>;
  timers: Timers;
  /** In [0, 1): where in its interval a job's first run falls. */
  random: () => number;
}

export interface SchedulerSettings {
  failureThreshold: number;
  /** Checks running at once, across all monitors. */
  concurrency: number;
  /** Upper bound of one organization's share of `concurrency` (see FairLimiter); default: no bound beyond the fair share. */
  perOrganizationConcurrency?: number | undefined;
  /** Safety net: how often the whole schedule is compared with the database. */
  resyncIntervalMs: number;
}

/** One monitor checked from one region, every `intervalMs`. */
interface Job {
  monitorId: string;
  /** Whose share of the check slots this job uses. */
  organizationId: string;
  region: Region;
  intervalMs: number;
  nextAt: number;
  cancel: Cancel;
  busy: boolean;
}

interface MonitorJobs {
  /** Interval and regions: a change of either reschedules the monitor; other edits are read at run time. */
  shape: string;
  jobs: Job[];
}

/**
 * Every check ends within its own timeout; should one not (a bug, a stuck DNS lookup), it is
 * recorded as timed out this much later, so its slot is never held for longer.
 */
export const CHECK_GRACE_MS = 2_000;

/**
 * How early a timer may fire and still claim its check: timers are not exact, nor are the clocks
 * of two machines. A tenth of the interval, at most a second.
 */
export function claimTolerance(intervalMs: number): number {
  return Math.min(1_000, Math.floor(intervalMs / 10));
}

const shapeOf = (monitor: SchedulableMonitor): string => `${monitor.interval}|${monitor.regions.join(',')}`;

/**
 * Runs every active monitor from each of its regions at its interval. First runs fall at a random point
 * of the interval, so a restart spreads checks instead of bursting; later runs keep a fixed rate. A job
 * whose previous check is still running or waiting skips its turn; a bounded pool runs the checks, each
 * with its own timeout, so a slow target only ever holds one slot, and shares the slots fairly between
 * organizations, so one organization's slow or blackholed targets never hold up another's checks. Handlers call `sync` after a change;
 * a periodic resync catches anything else.
 */
export class Scheduler {
  private readonly deps: SchedulerDeps;
  private readonly settings: SchedulerSettings;
  private readonly limiter: FairLimiter;
  private readonly monitors = new Map<string, MonitorJobs>();
  private cancelResync: Cancel | null = null;
  private stopped = true;
  /** Who claims checks in the database: this scheduler, in this process. */
  private readonly holder = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;

  constructor(deps: SchedulerDeps, settings: SchedulerSettings) {
    this.deps = deps;
    this.settings = settings;
    this.limiter = new FairLimiter(settings.concurrency, settings.perOrganizationConcurrency ?? settings.concurrency);
  }

  /** Resolves after the first resync (tests wait for it; the service does not need to). */
  start(): Promise<void> {
    this.stopped = false;
    return this.resync();
  }

  stop(): void {
    this.stopped = true;
    this.cancelResync?.();
    this.cancelResync = null;
    for (const id of [...this.monitors.keys()]) this.unschedule(id);
    this.limiter.clear();
  }

  /** Number of (monitor, region) jobs scheduled; for tests and diagnostics. */
  get jobCount(): number {
    let count = 0;
    for (const entry of this.monitors.values()) count += entry.jobs.length;
    return count;
  }

  /** Brings one monitor's jobs in line with the database (created, edited, paused, resumed or deleted). */
  async sync(monitorId: string): Promise<void> {
    if (this.stopped) return;
    const state = await this.deps.store.monitors.getState(monitorId);
    if (this.stopped) return;
    if (!state || !state.monitor.active || state.simulated) {
      this.unschedule(monitorId);
      return;
    }
    this.ensure({ id: monitorId, organizationId: state.organizationId, interval: state.monitor.interval, regions: state.monitor.regions });
  }

  /** Compares the whole schedule with the database, then arms the next resync. */
  async resync(): Promise<void> {
    if (this.stopped) return;
    this.cancelResync?.();
    try {
      const wanted = await this.deps.store.monitors.schedulable();
      if (this.stopped) return;
      const ids = new Set(wanted.map((monitor) => monitor.id));
      for (const id of [...this.monitors.keys()]) if (!ids.has(id)) this.unschedule(id);
      for (const monitor of wanted) this.ensure(monitor);
    } catch (error) {
      this.deps.log(`scheduler resync failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    this.cancelResync = this.deps.timers.after(this.settings.resyncIntervalMs, () => void this.resync());
  }

  private ensure(monitor: SchedulableMonitor): void {
    const shape = shapeOf(monitor);
    if (this.monitors.get(monitor.id)?.shape === shape) return;
    this.unschedule(monitor.id);
    const intervalMs = monitor.interval * 1000;
    const now = this.deps.now().getTime();
    const jobs = monitor.regions.map((region): Job => {
      const job: Job = { monitorId: monitor.id, organizationId: monitor.organizationId, region, intervalMs, nextAt: now + Math.floor(this.deps.random() * intervalMs), cancel: () => undefined, busy: false };
      this.arm(job);
      return job;
    });
    this.monitors.set(monitor.id, { shape, jobs });
  }

  private unschedule(monitorId: string): void {
    const entry = this.monitors.get(monitorId);
    if (!entry) return;
    for (const job of entry.jobs) job.cancel();
    this.monitors.delete(monitorId);
  }

  private isCurrent(job: Job): boolean {
    return !this.stopped && (this.monitors.get(job.monitorId)?.jobs.includes(job) ?? false);
  }

  private arm(job: Job): void {
    job.cancel = this.deps.timers.after(job.nextAt - this.deps.now().getTime(), () => this.due(job));
  }

  private due(job: Job): void {
    if (!this.isCurrent(job)) return;
    const now = this.deps.now().getTime();
    // Fixed rate; after a stall (suspended machine, clock jump) continue from now instead of catching up.
    job.nextAt = job.nextAt + job.intervalMs > now ? job.nextAt + job.intervalMs : now + job.intervalMs;
    this.arm(job);
    if (job.busy) return;
    job.busy = true;
    this.limiter.run(job.organizationId, async () => {
      try {
        await this.execute(job);
      } finally {
        job.busy = false;
      }
    });
  }

  private async execute(job: Job): Promise<void> {
    if (!this.isCurrent(job)) return;
    const state = await this.deps.store.monitors.getState(job.monitorId);
    if (!state || !state.monitor.active || state.simulated) {
      await this.sync(job.monitorId);
      return;
    }
    // Several processes may schedule this monitor (several replicas on one database): the one that
    // moves the check's shared due time on runs it, the others skip this turn (store/check-claims.ts).
    const claimed = await this.deps.store.checkClaims.claim(job.monitorId, job.region, this.holder, this.deps.now().getTime(), job.intervalMs, claimTolerance(job.intervalMs));
    if (!claimed) {
      await this.followSharedDueTime(job);
      return;
    }
    if (!this.isCurrent(job)) return;
    const checkedAt = this.deps.now().toISOString();
    const target = checkTargetOf(state.monitor);
    const outcome = await withDeadline(this.deps.runCheck(state.organizationId, target), target.timeoutSeconds * 1000 + CHECK_GRACE_MS, () => ({
      status: 'down' as const,
      latencyMs: target.timeoutSeconds * 1000,
      statusCode: null,
      error: timeoutMessage(target.timeoutSeconds),
    }));
    // Paused, deleted or rescheduled while the check ran: its result no longer belongs anywhere.
    if (!this.isCurrent(job)) return;
    try {
      const recorded = await recordCheckOutcome(
        { store: this.deps.store, now: this.deps.now, failureThreshold: this.settings.failureThreshold, notifier: this.deps.notifier },
        job.monitorId,
        { region: job.region, checkedAt, outcome },
      );
      if (!recorded) return;
      if (recorded.transition) this.deps.log(`monitor ${JSON.stringify(recorded.monitorName)} is ${recorded.transition === 'down' ? 'down' : 'up again'} (check from ${job.region})`);
      this.deps.notifier.wake();
    } catch (error) {
      this.deps.log(`recording a check of monitor ${job.monitorId} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /**
   * Another process holds this turn: fire next at the shared due time instead of at this job's own
   * phase, so that if that process dies the check runs when it was due, not up to an interval later.
   * The due time is beyond the claim tolerance (that is why the claim failed), so this never spins.
   */
  private async followSharedDueTime(job: Job): Promise<void> {
    const due = await this.deps.store.checkClaims.dueAt(job.monitorId, job.region);
    const now = this.deps.now().getTime();
    if (due === null || due <= now || !this.isCurrent(job) || due === job.nextAt) return;
    job.cancel();
    job.nextAt = due;
    this.arm(job);
  }
}
