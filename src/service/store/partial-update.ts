/**
 * PATCH in SQL: only the columns a request changes, plus updated_at, on a row of one
 * organization. Column names come from the repositories' literals; only values are bound.
 */
import type { SQLInputValue } from 'node:sqlite';
import type { Database } from './database.ts';

export class ColumnChanges {
  readonly assignments: string[] = [];
  readonly values: SQLInputValue[] = [];

  set(column: string, value: SQLInputValue): void {
    this.assignments.push(`${column} = ?`);
    this.values.push(value);
  }
}

/** Returns false when no row of that organization has that id. */
export function updateOwnedRow(db: Database, table: string, organizationId: string, id: string, changes: ColumnChanges, now: Date): boolean {
  changes.set('updated_at', now.toISOString());
  const result = db.connection
    .prepare(`UPDATE ${table} SET ${changes.assignments.join(', ')} WHERE organization_id = ? AND id = ?`)
    .run(...changes.values, organizationId, id);
  return result.changes > 0;
}
