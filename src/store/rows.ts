import { StoreDataError } from './errors.ts';
import { readStoredTime } from './time.ts';

/** A value as a dialect hands it back (SQLite's; PostgreSQL's driver maps onto the same). */
export type SqlValue = null | number | bigint | string | Uint8Array;
/** A value a query takes. */
export type SqlParam = null | number | bigint | string | Uint8Array;
export type Row = Readonly<Record<string, SqlValue>>;

function describe(value: SqlValue | undefined): string {
  if (value === undefined) return 'no such column';
  if (value === null) return 'null';
  if (value instanceof Uint8Array) return 'a blob';
  return typeof value === 'string' ? `text ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}` : `${typeof value} ${value}`;
}

/**
 * Strict, typed reading of one row of `table`: every getter checks the value it returns, and a
 * value of the wrong kind throws a StoreDataError naming `table.column`, what was expected and
 * what was found. Nothing is coerced, so a bad row fails where it is read, not three calls later.
 */
export class RowReader {
  readonly table: string;
  private readonly row: Row;

  constructor(table: string, row: Row) {
    this.table = table;
    this.row = row;
  }

  private fail(column: string, expected: string): never {
    throw new StoreDataError(`${this.table}.${column}: expected ${expected}, found ${describe(this.row[column])}`);
  }

  private isNull(column: string): boolean {
    if (!(column in this.row)) this.fail(column, 'a column');
    return this.row[column] === null;
  }

  text(column: string): string {
    const value = this.row[column];
    return typeof value === 'string' ? value : this.fail(column, 'text');
  }

  textOrNull(column: string): string | null {
    return this.isNull(column) ? null : this.text(column);
  }

  int(column: string): number {
    const value = this.row[column];
    if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
    if (typeof value === 'bigint' && value >= Number.MIN_SAFE_INTEGER && value <= Number.MAX_SAFE_INTEGER) return Number(value);
    return this.fail(column, 'an integer');
  }

  intOrNull(column: string): number | null {
    return this.isNull(column) ? null : this.int(column);
  }

  /** A stored time (see time.ts), as epoch milliseconds. */
  time(column: string): number {
    const value = this.row[column];
    const ms = typeof value === 'string' ? readStoredTime(value) : null;
    return ms ?? this.fail(column, 'an ISO-8601 UTC time');
  }

  timeOrNull(column: string): number | null {
    return this.isNull(column) ? null : this.time(column);
  }

  /** One of a list of allowed strings. */
  oneOf<const T extends readonly string[]>(column: string, allowed: T): T[number] {
    const value = this.row[column];
    const match = allowed.find((candidate) => candidate === value);
    return match ?? this.fail(column, allowed.join('|'));
  }

  /** A JSON text column whose parsed value `accept` recognizes. */
  json<T>(column: string, accept: (value: unknown) => value is T, shape: string): T {
    let parsed: unknown;
    try {
      parsed = JSON.parse(this.text(column));
    } catch (error) {
      if (error instanceof StoreDataError) throw error;
      return this.fail(column, `JSON (${shape})`);
    }
    return accept(parsed) ? parsed : this.fail(column, `JSON ${shape}`);
  }
}

/** The reader of `row`, read from `table`. */
export function readRow(table: string, row: Row): RowReader {
  return new RowReader(table, row);
}

export function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}
