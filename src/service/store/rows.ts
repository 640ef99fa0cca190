import type { z } from 'zod';
import { StoreDataError } from '../../store/errors.ts';
import type { Row, SqlValue } from '../../store/rows.ts';

export type { Row } from '../../store/rows.ts';

/**
 * Reads one row of `table` with `read`: a StoreDataError then names `table.column`, as the storage
 * floor's row reader does (src/store/rows.ts; the service keeps its own, see docs/storage.md).
 */
export function fromTable<T>(table: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof StoreDataError && error.message.startsWith('column ')) throw new StoreDataError(`${table}.${error.message.slice('column '.length)}`);
    throw error;
  }
}

function fail(column: string, expected: string, value: SqlValue | undefined): never {
  throw new StoreDataError(`column ${column}: expected ${expected}, found ${value === null ? 'null' : typeof value}`);
}

export function text(row: Row, column: string): string {
  const value = row[column];
  return typeof value === 'string' ? value : fail(column, 'text', value);
}

export function textOrNull(row: Row, column: string): string | null {
  const value = row[column];
  if (value === null) return null;
  return typeof value === 'string' ? value : fail(column, 'text or null', value);
}

export function int(row: Row, column: string): number {
  const value = row[column];
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  return fail(column, 'integer', value);
}

export function intOrNull(row: Row, column: string): number | null {
  return row[column] === null ? null : int(row, column);
}

export function flag(row: Row, column: string): boolean {
  return int(row, column) !== 0;
}

/** Parses a JSON text column and checks it against `schema`. */
export function json<T extends z.ZodType>(row: Row, column: string, schema: T): z.output<T> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text(row, column));
  } catch {
    throw new StoreDataError(`column ${column}: invalid JSON`);
  }
  const result = schema.safeParse(parsed);
  if (!result.success) throw new StoreDataError(`column ${column}: unexpected JSON shape`);
  return result.data;
}

/** One value from a row of a list of allowed strings. */
export function oneOf<const T extends readonly string[]>(row: Row, column: string, allowed: T): T[number] {
  const value = text(row, column);
  const match = allowed.find((candidate) => candidate === value);
  return match ?? fail(column, allowed.join('|'), value);
}

export function oneOfOrNull<const T extends readonly string[]>(row: Row, column: string, allowed: T): T[number] | null {
  return row[column] === null ? null : oneOf(row, column, allowed);
}

/** `?, ?, ?` for an IN list of `count` values (count must be > 0). */
export function placeholders(count: number): string {
  return new Array<string>(count).fill('?').join(', ');
}

export function bit(value: boolean): number {
  return value ? 1 : 0;
}
