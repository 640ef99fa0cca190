import { AutoIncidentRepository } from './auto-incidents.ts';
import { CheckRepository } from './checks.ts';
import { Database } from './database.ts';
import { DeliveryRepository } from './deliveries.ts';
import { DemoTargetRepository } from './demo-targets.ts';
import { HealthCountRepository } from './health-counts.ts';
import { IncidentRepository } from './incidents.ts';
import { MaintenanceRepository } from './maintenance.ts';
import { migrate } from './migrations.ts';
import { MonitorRepository } from './monitors.ts';
import { NotificationChannelRepository } from './notifications.ts';
import { DemoMetaRepository, OrganizationRepository } from './organizations.ts';
import { StatusPageRepository } from './status-pages.ts';

/** The service's persistent state: one SQLite database, one repository per resource. */
export class Store {
  readonly db: Database;
  readonly organizations: OrganizationRepository;
  readonly demo: DemoMetaRepository;
  readonly monitors: MonitorRepository;
  readonly checks: CheckRepository;
  readonly statusPages: StatusPageRepository;
  readonly incidents: IncidentRepository;
  readonly maintenance: MaintenanceRepository;
  readonly notifications: NotificationChannelRepository;
  readonly deliveries: DeliveryRepository;
  readonly autoIncidents: AutoIncidentRepository;
  readonly demoTargets: DemoTargetRepository;
  readonly healthCounts: HealthCountRepository;

  private constructor(db: Database) {
    this.db = db;
    this.organizations = new OrganizationRepository(db);
    this.demo = new DemoMetaRepository(db);
    this.monitors = new MonitorRepository(db);
    this.checks = new CheckRepository(db);
    this.statusPages = new StatusPageRepository(db);
    this.incidents = new IncidentRepository(db);
    this.maintenance = new MaintenanceRepository(db);
    this.notifications = new NotificationChannelRepository(db);
    this.deliveries = new DeliveryRepository(db);
    this.autoIncidents = new AutoIncidentRepository(db);
    this.demoTargets = new DemoTargetRepository(db);
    this.healthCounts = new HealthCountRepository(db);
  }

  /** Opens (creating if needed) and migrates the database at `path` (':memory:' for a throwaway one). */
  static open(path: string): Store {
    const db = new Database(path);
    try {
      migrate(db);
    } catch (error) {
      db.close();
      throw error;
    }
    return new Store(db);
  }

  /** Runs `work` in one transaction: all of its writes land, or none do. */
  transaction<T>(work: () => T): T {
    return this.db.transaction(work);
  }

  isEmpty(): boolean {
    return this.organizations.count() === 0;
  }

  close(): void {
    this.db.close();
  }
}
