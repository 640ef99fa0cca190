import type { Database, Sql } from '../../store/database.ts';
import type { StoreLocation } from '../../store/location.ts';
import { openMigrated } from '../../store/location.ts';
import { AutoIncidentRepository } from './auto-incidents.ts';
import { CheckClaimRepository } from './check-claims.ts';
import { CheckRepository } from './checks.ts';
import { DeliveryRepository } from './deliveries.ts';
import { DemoTargetRepository } from './demo-targets.ts';
import { HealthCountRepository } from './health-counts.ts';
import { IncidentRepository } from './incidents.ts';
import { MaintenanceRepository } from './maintenance.ts';
import { SERVICE_MIGRATIONS, SERVICE_SCHEMA } from './migrations.ts';
import { MonitorRepository } from './monitors.ts';
import { NotificationOutboxRepository } from './notification-outbox.ts';
import { NotificationChannelRepository } from './notifications.ts';
import { DemoMetaRepository, OrganizationRepository } from './organizations.ts';
import { RateLimitWindowRepository } from './rate-limit-windows.ts';
import { StatusPageRepository } from './status-pages.ts';

/**
 * One repository per resource, over one way of running SQL: the database itself (each call on its
 * own), or the statements of one open transaction (Store.transaction hands its work these).
 */
export class Repositories {
  readonly organizations: OrganizationRepository;
  readonly demo: DemoMetaRepository;
  readonly monitors: MonitorRepository;
  readonly checks: CheckRepository;
  readonly checkClaims: CheckClaimRepository;
  readonly statusPages: StatusPageRepository;
  readonly incidents: IncidentRepository;
  readonly maintenance: MaintenanceRepository;
  readonly notifications: NotificationChannelRepository;
  readonly deliveries: DeliveryRepository;
  readonly notificationOutbox: NotificationOutboxRepository;
  readonly autoIncidents: AutoIncidentRepository;
  readonly demoTargets: DemoTargetRepository;
  readonly healthCounts: HealthCountRepository;
  readonly rateLimitWindows: RateLimitWindowRepository;

  constructor(sql: Sql) {
    this.organizations = new OrganizationRepository(sql);
    this.demo = new DemoMetaRepository(sql);
    this.monitors = new MonitorRepository(sql);
    this.checks = new CheckRepository(sql);
    this.checkClaims = new CheckClaimRepository(sql);
    this.statusPages = new StatusPageRepository(sql);
    this.incidents = new IncidentRepository(sql);
    this.maintenance = new MaintenanceRepository(sql);
    this.notifications = new NotificationChannelRepository(sql);
    this.deliveries = new DeliveryRepository(sql);
    this.notificationOutbox = new NotificationOutboxRepository(sql);
    this.autoIncidents = new AutoIncidentRepository(sql);
    this.demoTargets = new DemoTargetRepository(sql);
    this.healthCounts = new HealthCountRepository(sql);
    this.rateLimitWindows = new RateLimitWindowRepository(sql);
  }

  async isEmpty(): Promise<boolean> {
    return (await this.organizations.count()) === 0;
  }
}

/** Where the embedded API's store lives: a SQLite path (DATABASE_PATH) or DATABASE_URL, in the `service` schema there. */
export function serviceLocation(databaseUrl: string | null | undefined, databasePath: string): StoreLocation {
  return databaseUrl ? { dialect: 'postgres', url: databaseUrl, schema: SERVICE_SCHEMA } : { dialect: 'sqlite', path: databasePath };
}

/**
 * The service's persistent state on the storage floor (src/store/): a SQLite file by default, or
 * PostgreSQL (its `service` schema) when DATABASE_URL is set; one repository per resource.
 */
export class Store extends Repositories {
  readonly db: Database;

  private constructor(db: Database) {
    super(db);
    this.db = db;
  }

  /**
   * Opens (creating if needed) and migrates the store at `location`: a SQLite path (':memory:' for a
   * throwaway one) or a StoreLocation. Rejects with the floor's StoreVersionError or StoreConnectError.
   */
  static async open(location: string | StoreLocation): Promise<Store> {
    const where: StoreLocation = typeof location === 'string' ? { dialect: 'sqlite', path: location } : location;
    return new Store(await openMigrated(where.dialect === 'postgres' ? { ...where, schema: where.schema ?? SERVICE_SCHEMA } : where, SERVICE_MIGRATIONS));
  }

  /**
   * Runs `work` in one transaction on the repositories it is given: all of its writes land, or none
   * do. Inside, use those only (on SQLite a call on the store itself waits for this transaction).
   */
  transaction<T>(work: (tx: Repositories) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => work(new Repositories(tx)));
  }

  close(): Promise<void> {
    return this.db.close();
  }
}
