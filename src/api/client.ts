/**
 * createClient: the typed client for the whole Monitoring and Status Service API.
 * One keep-alive agent per client; `close()` releases it.
 */
import type { RequestDispatcher } from './http-dispatcher.ts';
import type { InvalidItemHandler } from './codec.ts';
import { Requester, type Logger } from './requester.ts';
import { incidentsResource, type IncidentsResource } from './resources/incidents.ts';
import { maintenanceResource, type MaintenanceResource } from './resources/maintenance.ts';
import { monitorsResource, type MonitorsResource } from './resources/monitors.ts';
import { notificationsResource, type NotificationsResource } from './resources/notifications.ts';
import { organizationResource, type OrganizationResource } from './resources/organization.ts';
import { statusPagesResource, type StatusPagesResource } from './resources/status-pages.ts';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry.ts';
import { Transport, type Timeouts } from './transport.ts';

export interface ClientOptions {
  /** Must end in /api/v1 (a trailing slash is fine), e.g. `http://127.0.0.1:4322/api/v1`. */
  baseUrl: string;
  apiKey: string;
  /** Milliseconds; defaults connect 5 s, headers 10 s, body 10 s, total 20 s per attempt. */
  timeouts?: Partial<Timeouts> | undefined;
  /** Retries of idempotent requests after network errors, timeouts, 429 and 5xx. Default 2. */
  maxRetries?: number | undefined;
  /** Replaces the client's own keep-alive dispatcher (an undici one fits: tests, proxies); not closed by `close()`. */
  dispatcher?: RequestDispatcher | undefined;
  /** Receives the client's warnings (dropped items, stopped pagination). Default: console. */
  logger?: Logger | undefined;
  /** Called for each list item dropped as invalid; default: one warn line on the logger. */
  onInvalidItem?: InvalidItemHandler | undefined;
  /** Waits between retries; injectable for tests. */
  sleep?: ((ms: number) => Promise<void>) | undefined;
}

export interface ApiClient {
  monitors: MonitorsResource;
  statusPages: StatusPagesResource;
  incidents: IncidentsResource;
  maintenance: MaintenanceResource;
  organization: OrganizationResource;
  notifications: NotificationsResource;
  /** Closes the keep-alive agent; the client must not be used afterwards. */
  close(): Promise<void>;
}

export function createClient(options: ClientOptions): ApiClient {
  const transport = new Transport(options);
  const retry: RetryPolicy = {
    ...DEFAULT_RETRY_POLICY,
    maxRetries: Math.max(0, Math.floor(options.maxRetries ?? DEFAULT_RETRY_POLICY.maxRetries)),
    sleep: options.sleep ?? DEFAULT_RETRY_POLICY.sleep,
  };
  const requester = new Requester({
    transport,
    retry,
    logger: options.logger ?? console,
    onInvalidItem: options.onInvalidItem,
  });
  return {
    monitors: monitorsResource(requester),
    statusPages: statusPagesResource(requester),
    incidents: incidentsResource(requester),
    maintenance: maintenanceResource(requester),
    organization: organizationResource(requester),
    notifications: notificationsResource(requester),
    close: () => transport.close(),
  };
}
