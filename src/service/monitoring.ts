import { runCheck, type CheckOutcome, type CheckTarget } from './checks/run-check.ts';
import type { OrganizationEgress } from './egress/organization-egress.ts';
import { MonitoringEngine } from './engine/engine.ts';
import { DEFAULT_FAILURE_THRESHOLD } from './engine/health-transition.ts';
import { systemTimers, type Timers } from './engine/timers.ts';
import { DEFAULT_RETRY_DELAYS_MS, DEFAULT_WEBHOOK_TIMEOUT_MS, DeliveryQueue, type OutboxSettings } from './events/delivery-queue.ts';
import type { SmtpSettings } from './events/email-transport.ts';
import { Notifier } from './events/notifier.ts';
import type { Store } from './store/store.ts';

/** Tuning of notification delivery. */
export interface NotificationOptions {
  /** false: events are only logged, nothing is sent or recorded (tests, offline runs). Default true. */
  deliver?: boolean;
  /** Waits before each retry; attempts = delays + 1. Default [1000, 5000, 30000]. */
  retryDelaysMs?: readonly number[];
  /** Time limit of one webhook POST. Default 5000. */
  webhookTimeoutMs?: number;
  /** The shared outbox's claim lease, idle poll and concurrency (events/delivery-queue.ts). */
  outbox?: Partial<OutboxSettings>;
}

/** Tuning of the monitoring engine; tests inject timers and randomness to drive time by hand. */
export interface EngineOptions {
  /** Checks running at once. Default 8; organizations share them fairly (see engine/limiter.ts). */
  concurrency?: number;
  /** Most checks one organization may run at once, below its fair share. Default: the fair share alone. */
  perOrganizationConcurrency?: number;
  /** Safety-net resync of the schedule with the database. Default 30000. */
  resyncIntervalMs?: number;
  /** Longest sleep of the maintenance clock. Default 30000. */
  maintenanceSweepMs?: number;
  /** Timers of the scheduler and the maintenance clock (not of delivery retries). */
  timers?: Timers;
  /** Where in its interval each job's first check falls, in [0, 1). Default Math.random. */
  random?: () => number;
}

/** The monitoring part of ServiceOptions. */
export interface MonitoringOptions {
  /** Run the monitoring engine: scheduled checks and maintenance windows by the clock. Default true. */
  scheduler?: boolean;
  /** Failed checks in a row before a monitor is down. Default 2. */
  failureThreshold?: number;
  /** SMTP server of e-mail notifications; unset or null: e-mail deliveries are recorded as skipped. */
  smtp?: SmtpSettings | null;
  notifications?: NotificationOptions;
  engine?: EngineOptions;
}

export interface Monitoring {
  notifier: Notifier;
  /** Null with `scheduler: false`. */
  engine: MonitoringEngine | null;
  /** Null with `notifications.deliver: false`. */
  deliveries: DeliveryQueue | null;
  failureThreshold: number;
  runCheck: (organizationId: string, target: CheckTarget) => Promise<CheckOutcome>;
}

/**
 * Builds the notifier, the delivery queue and the engine from the options (nothing is started yet).
 * Every check and webhook connects through the egress policy of its organization.
 */
export function createMonitoring(store: Store, now: () => Date, log: (line: string) => void, options: MonitoringOptions, egress: OrganizationEgress): Monitoring {
  const deliveries =
    options.notifications?.deliver === false
      ? null
      : new DeliveryQueue(
          { store, now, log },
          {
            retryDelaysMs: options.notifications?.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS,
            webhookTimeoutMs: options.notifications?.webhookTimeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS,
            smtp: options.smtp ?? null,
            egress,
          },
          options.notifications?.outbox,
        );
  const notifier = new Notifier(store, log, deliveries);
  const failureThreshold = options.failureThreshold ?? DEFAULT_FAILURE_THRESHOLD;
  const check = (organizationId: string, target: CheckTarget): Promise<CheckOutcome> => runCheck(target, { egress: egress.for(organizationId) });
  const engine =
    options.scheduler === false
      ? null
      : new MonitoringEngine(
          { store, now, log, notifier, runCheck: check, timers: options.engine?.timers ?? systemTimers, random: options.engine?.random ?? Math.random },
          {
            failureThreshold,
            concurrency: options.engine?.concurrency ?? 8,
            perOrganizationConcurrency: options.engine?.perOrganizationConcurrency,
            resyncIntervalMs: options.engine?.resyncIntervalMs ?? 30_000,
            maintenanceSweepMs: options.engine?.maintenanceSweepMs ?? 30_000,
          },
        );
  return { notifier, engine, deliveries, failureThreshold, runCheck: check };
}
