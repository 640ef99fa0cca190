import { CHECK_STATUSES, type CheckStatus } from '../../contract/monitor.ts';
import type { Sql } from '../../store/database.ts';
import { newId } from '../../store/ids.ts';
import { bit, int, intOrNull, oneOf, text, textOrNull, type Row, fromTable } from './rows.ts';

export interface CheckRecord {
  id: string;
  monitorId: string;
  status: CheckStatus;
  /** Milliseconds. */
  latency: number;
  statusCode: number | null;
  region: string;
  checkedAt: string;
  error: string | null;
}

export interface NewCheck extends Omit<CheckRecord, 'id'> {
  /** Set only for checks the demo seeder invents. */
  demo?: boolean;
}

function toCheck(row: Row): CheckRecord {
  return fromTable('checks', () => {
    return {
      id: text(row, 'id'),
      monitorId: text(row, 'monitor_id'),
      status: oneOf(row, 'status', CHECK_STATUSES),
      latency: int(row, 'latency'),
      statusCode: intOrNull(row, 'status_code'),
      region: text(row, 'region'),
      checkedAt: text(row, 'checked_at'),
      error: textOrNull(row, 'error'),
    };
  });
}

/** Check history. Callers scope by organization by resolving the monitor first. */
export class CheckRepository {
  private readonly db: Sql;

  constructor(db: Sql) {
    this.db = db;
  }

  async count(monitorId: string): Promise<number> {
    const row = await this.db.get('SELECT COUNT(*) AS n FROM checks WHERE monitor_id = ?', monitorId);
    return row ? int(row, 'n') : 0;
  }

  /** Newest first. */
  async list(monitorId: string, page: { limit: number; offset: number }): Promise<CheckRecord[]> {
    return (await this.db.all('SELECT * FROM checks WHERE monitor_id = ? ORDER BY checked_at DESC, rowid DESC LIMIT ? OFFSET ?', monitorId, page.limit, page.offset))
      .map(toCheck);
  }

  async get(id: string): Promise<CheckRecord | null> {
    const row = await this.db.get('SELECT * FROM checks WHERE id = ?', id);
    return row ? toCheck(row) : null;
  }

  async insert(check: NewCheck): Promise<CheckRecord> {
    const id = newId('chk');
    await this.db.run(`INSERT INTO checks (id, monitor_id, status, latency, status_code, region, error, demo, checked_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, id, check.monitorId, check.status, check.latency, check.statusCode, check.region, check.error, bit(check.demo ?? false), check.checkedAt);
    return { id, monitorId: check.monitorId, status: check.status, latency: check.latency, statusCode: check.statusCode, region: check.region, checkedAt: check.checkedAt, error: check.error };
  }

  /**
   * Inserts many checks (the demo's history), a hundred rows per statement: on PostgreSQL each
   * statement is a round trip, and thousands of single inserts would take seconds.
   */
  async insertMany(checks: readonly NewCheck[]): Promise<void> {
    for (let start = 0; start < checks.length; start += INSERT_BATCH) {
      const batch = checks.slice(start, start + INSERT_BATCH);
      await this.db.run(
        `INSERT INTO checks (id, monitor_id, status, latency, status_code, region, error, demo, checked_at) VALUES ${batch.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
        ...batch.flatMap((check) => [newId('chk'), check.monitorId, check.status, check.latency, check.statusCode, check.region, check.error, bit(check.demo ?? false), check.checkedAt]),
      );
    }
  }
}

const INSERT_BATCH = 100;
