import type { CheckOutcome, CheckTarget } from './checks/run-check.ts';
import type { OrganizationEgress } from './egress/organization-egress.ts';
import type { EngineHooks } from './engine/engine.ts';
import type { Notifier } from './events/notifier.ts';
import type { Store } from './store/store.ts';

/** What the HTTP handlers need from the outside world; injected so tests control clock and checks. */
export interface ServiceDeps {
  store: Store;
  now: () => Date;
  log: (line: string) => void;
  /** Lines only worth reading when debugging (a client that left mid-request). */
  logDebug: (line: string) => void;
  notifier: Notifier;
  /** Runs one check of an organization's monitor, under that organization's egress policy. */
  runCheck: (organizationId: string, target: CheckTarget) => Promise<CheckOutcome>;
  /** Told about monitor and maintenance changes once they are committed. */
  engine: EngineHooks;
  /** Failed checks in a row before a monitor counts as down. */
  failureThreshold: number;
  /** Which check and webhook targets each organization may save (and the engine may reach). */
  egress: OrganizationEgress;
}
