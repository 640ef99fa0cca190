/**
 * PATCH in SQL: only the columns a request changes, plus updated_at, on a row of one
 * organization. Column names come from the repositories' literals; only values are bound.
 */
import type { Sql } from '../../store/database.ts';
import type { SqlParam } from '../../store/rows.ts';

export class ColumnChanges {
  readonly assignments: string[] = [];
  readonly values: SqlParam[] = [];

  set(column: string, value: SqlParam): void {
    this.assignments.push(`${column} = ?`);
    this.values.push(value);
  }
}

/** Returns false when no row of that organization has that id. */
export async function updateOwnedRow(db: Sql, table: string, organizationId: string, id: string, changes: ColumnChanges, now: Date): Promise<boolean> {
  changes.set('updated_at', now.toISOString());
  const result = await db.run(`UPDATE ${table} SET ${changes.assignments.join(', ')} WHERE organization_id = ? AND id = ?`, ...changes.values, organizationId, id);
  return result.changes > 0;
}
