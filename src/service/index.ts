import type { Server } from 'node:http';
import http from './http/node-http.ts';
import type { AddressInfo } from 'node:net';
import type { Plan } from '../contract/organization.ts';
import type { ServiceDeps } from './deps.ts';
import { DEMO_CLOSED_PORT, pointDemoAtLocalTargets, pointDemoAtSite } from './demo/local-targets.ts';
import { demoInfo, seedDemo, type DemoInfo } from './demo/seed.ts';
import type { Resolver } from './egress/egress-policy.ts';
import { OrganizationEgress, type PrivateTargets } from './egress/organization-egress.ts';
import { NO_ENGINE } from './engine/engine.ts';
import type { DeliveryQueue } from './events/delivery-queue.ts';
import { apiRoutes } from './handlers/index.ts';
import { DEFAULT_MAX_BODY_BYTES } from './http/body.ts';
import { DEFAULT_RATE_LIMITS, RateLimiter, StoreRateLimiter, type RateLimits } from './http/rate-limit.ts';
import { API_PREFIX, createApiHandler } from './http/server.ts';
import { createMonitoring, type MonitoringOptions } from './monitoring.ts';
import { serviceLocation, Store } from './store/store.ts';

export type { DemoInfo } from './demo/seed.ts';
export type { RateLimits } from './http/rate-limit.ts';
export { DEFAULT_RATE_LIMITS } from './http/rate-limit.ts';
export { DEFAULT_MAX_BODY_BYTES } from './http/body.ts';
export { Store, serviceLocation } from './store/store.ts';
export type { SmtpSettings } from './events/email-transport.ts';
export type { Timers, Cancel } from './engine/timers.ts';
export { readEngineConfig, readLimitsConfig, type EngineConfig, type LimitsConfig } from './config.ts';
export { DEMO_CLOSED_PORT } from './demo/local-targets.ts';
export type { EngineOptions, MonitoringOptions, NotificationOptions } from './monitoring.ts';
export type { Resolver, ResolvedAddress } from './egress/egress-policy.ts';
export { privateTargetsNotice, type PrivateTargets } from './egress/organization-egress.ts';

export interface ServiceOptions extends MonitoringOptions {
  /** The SQLite file of the store (DATABASE_PATH), used unless `databaseUrl` is set. */
  databasePath: string;
  /** DATABASE_URL: the store goes to PostgreSQL, in its `service` schema. */
  databaseUrl?: string | null;
  /** Another PostgreSQL schema than `service` (tests give each service one of its own). */
  databaseSchema?: string;
  host?: string;
  port?: number;
  seedDemo?: boolean;
  rateLimits?: RateLimits;
  maxBodyBytes?: number;
  now?: () => Date;
  log?: (line: string) => void;
  /** Debug-level lines (a client that left mid-request); default: dropped. */
  logDebug?: (line: string) => void;
  /**
   * Local endpoints the demo's monitors check. `siteUrl`: origin of the site (its /healthz), also settable
   * later with `setSiteUrl` (and, like it, allowed by the egress policy). `tcpPort`: the closed port of "Primary database" (default 4329).
   */
  demoTargets?: { siteUrl?: string; tcpPort?: number };
  /**
   * ALLOW_PRIVATE_TARGETS: true, every organization's checks and webhooks may reach loopback, private
   * and link-local addresses; false, none may. Unset: only the demo organization's (whose monitors
   * check this machine); every other organization is held to the policy. See docs/api-contract.md, "Egress policy".
   */
  allowPrivateTargets?: boolean | undefined;
  /** How check and webhook host names are resolved (tests inject one); default: the system's. */
  resolver?: Resolver;
}

export interface RunningService {
  /** Base address including the version prefix, e.g. http://127.0.0.1:4322/api/v1. */
  url: string;
  port: number;
  demo: DemoInfo | null;
  store: Store;
  /** Whose checks and webhooks may reach private addresses: all organizations, only the demo's, or none. */
  privateTargets: PrivateTargets;
  /**
   * The site this service was started for listens at `siteUrl` (its loopback origin): the egress
   * policy allows that origin (the site's own push channel posts to it), and the demo's "Website"
   * monitor is pointed at `<siteUrl>/healthz` and starts being checked (it is not checked before:
   * the site's address is known only once the site listens).
   */
  setSiteUrl(siteUrl: string): void;
  close(): Promise<void>;
}

/** An organization name or plan that cannot be created. */
export class InvalidOrganizationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidOrganizationError';
  }
}

/** Creates an organization with one API key; the plaintext key is returned once and stored only as a hash. */
export async function createOrganization(store: Store, input: { name: string; plan: Plan }): Promise<{ organizationId: string; apiKey: string }> {
  const name = input.name.trim();
  if (name === '' || name.length > 100) throw new InvalidOrganizationError('organization name must be 1 to 100 characters');
  if (input.plan !== 'free' && input.plan !== 'pro') throw new InvalidOrganizationError('plan must be free or pro');
  const { organization, apiKey } = await store.transaction((tx) => tx.organizations.create({ name, plan: input.plan }, new Date()));
  return { organizationId: organization.id, apiKey };
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error): void => reject(error);
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

function baseUrl(host: string, port: number): string {
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return `http://${shownHost}:${port}${API_PREFIX}`;
}

/** How the service reaches itself: a wildcard listen address is reached over loopback. */
function selfUrl(host: string, port: number): string {
  if (host === '0.0.0.0' || host === '') return baseUrl('127.0.0.1', port);
  if (host === '::') return baseUrl('::1', port);
  return baseUrl(host, port);
}

/** Opens the store (migrating it), seeds demo data into an empty store if asked, and serves /api/v1. */
export async function startService(options: ServiceOptions): Promise<RunningService> {
  const now = options.now ?? (() => new Date());
  const log = options.log ?? ((line: string) => console.error(line));
  const host = options.host ?? '127.0.0.1';
  const location = serviceLocation(options.databaseUrl, options.databasePath);
  const store = await Store.open(location.dialect === 'postgres' && options.databaseSchema ? { ...location, schema: options.databaseSchema } : location);
  let deliveries: DeliveryQueue | null = null;
  try {
    if (options.seedDemo && (await store.isEmpty())) await seedDemo(store, now());
    const egress = new OrganizationEgress({
      allowPrivate: options.allowPrivateTargets,
      demoOrganizationId: (await store.demo.find())?.organizationId ?? null,
      resolver: options.resolver,
    });
    if (options.demoTargets?.siteUrl) egress.trustOrigin(options.demoTargets.siteUrl);
    const monitoring = createMonitoring(store, now, log, options, egress);
    const { notifier, engine, failureThreshold } = monitoring;
    deliveries = monitoring.deliveries;
    const logDebug = options.logDebug ?? (() => undefined);
    const deps: ServiceDeps = { store, now, log, logDebug, notifier, runCheck: monitoring.runCheck, engine: engine ?? NO_ENGINE, failureThreshold, egress };
    const server = http.createServer(
      createApiHandler({
        deps,
        routes: apiRoutes(deps),
        // On PostgreSQL several processes may serve one store: they count each key's requests together.
        rateLimiter:
          store.db.dialect === 'postgres'
            ? new StoreRateLimiter(store.rateLimitWindows, options.rateLimits ?? DEFAULT_RATE_LIMITS, now)
            : new RateLimiter(options.rateLimits ?? DEFAULT_RATE_LIMITS, now),
        maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
      }),
    );
    const port = await listen(server, options.port ?? 0, host);
    const demo = await demoInfo(store);
    if (demo) {
      await pointDemoAtLocalTargets(
        store,
        { apiUrl: selfUrl(host, port), tcpPort: options.demoTargets?.tcpPort ?? DEMO_CLOSED_PORT, siteUrl: options.demoTargets?.siteUrl ?? null },
        now(),
      );
    }
    deliveries?.start();
    await engine?.start();
    const queue = deliveries;
    let closing: Promise<void> | null = null;
    return {
      url: baseUrl(host, port),
      port,
      demo,
      store,
      privateTargets: egress.privateTargets,
      setSiteUrl: (siteUrl) => {
        egress.trustOrigin(siteUrl);
        if (closing) return;
        // Once the store answers; a failure is logged (the site keeps working without its demo monitor).
        void (async () => {
          if (!(await demoInfo(store))) return;
          const monitorId = await pointDemoAtSite(store, siteUrl, now());
          if (monitorId) deps.engine.monitorChanged(monitorId);
        })().catch((error: unknown) => log(`pointing the demo at the site failed: ${error instanceof Error ? error.message : String(error)}`));
      },
      close: () => {
        closing ??= new Promise<void>((resolve) => {
          engine?.stop();
          server.close(() => {
            void (queue?.stop() ?? Promise.resolve()).finally(() => {
              void store.close().catch(() => undefined).finally(resolve);
            });
          });
          server.closeIdleConnections();
          // Requests still in flight get a moment to finish before their sockets are cut.
          setTimeout(() => server.closeAllConnections(), 1000).unref();
        });
        return closing;
      },
    };
  } catch (error) {
    await deliveries?.stop();
    await store.close();
    throw error;
  }
}
