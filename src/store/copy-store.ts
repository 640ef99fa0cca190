/**
 * Copies a whole store from a SQLite file into an empty PostgreSQL one of the same schema version
 * (`npm run migrate -- --from-sqlite FILE`): every row of every table but the migrations' record,
 * in one transaction under the migration lock, so either everything arrives or nothing does, and
 * no replica migrates meanwhile. Generic over a store's MigrationList: the tables are those the
 * target's schema has (made by the store's own migrations), in an order that keeps foreign keys
 * satisfied; identity columns continue after the highest id copied. Refused, with nothing written:
 * a source at another schema version (migrate the file first), a target that holds any row.
 */
import type { Database, Transaction } from './database.ts';
import { latestVersion, migrate, schemaVersion, type MigrationList } from './migrations.ts';
import { readRow, type SqlParam } from './rows.ts';

export class StoreCopyError extends Error {
  override name = 'StoreCopyError';
}

export interface CopiedTable {
  table: string;
  rows: number;
}

const MIGRATIONS_TABLE = 'schema_migrations';
/** Rows per INSERT: a few hundred keeps statements small and round trips few. */
const BATCH_ROWS = 200;
const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The target's tables (its schema), parents before the tables that reference them. */
async function tablesInOrder(tx: Transaction): Promise<string[]> {
  const tables = (await tx.all("SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name"))
    .map((row) => readRow('information_schema.tables', row).text('name'))
    .filter((name) => name !== MIGRATIONS_TABLE);
  const references = (await tx.all("SELECT c.relname AS child, p.relname AS parent FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid JOIN pg_class p ON p.oid = k.confrelid WHERE k.contype = 'f' AND k.connamespace = current_schema()::regnamespace")).map((row) => {
    const read = readRow('pg_constraint', row);
    return { child: read.text('child'), parent: read.text('parent') };
  });
  const ordered: string[] = [];
  const visit = (table: string, path: Set<string>) => {
    if (ordered.includes(table) || path.has(table)) return;
    path.add(table);
    for (const { child, parent } of references) if (child === table && parent !== table) visit(parent, path);
    ordered.push(table);
  };
  for (const table of tables) visit(table, new Set());
  return ordered;
}

async function columnsOf(tx: Transaction, table: string): Promise<{ name: string; identity: boolean }[]> {
  const rows = await tx.all('SELECT column_name AS name, is_identity AS identity FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ? ORDER BY ordinal_position', table);
  return rows.map((row) => {
    const read = readRow('information_schema.columns', row);
    return { name: read.text('name'), identity: read.text('identity') === 'YES' };
  });
}

/** Refuses a source whose schema version is not the code's (before anything is opened in PostgreSQL). */
export async function checkSourceVersion(source: Database, list: MigrationList): Promise<void> {
  const latest = latestVersion(list);
  const version = await schemaVersion(source);
  if (version !== latest) {
    throw new StoreCopyError(`the ${list.store} file is at schema version ${version}, this Porchlight's is ${latest}: ${version < latest ? 'migrate the file first (npm run migrate with the SQLite file and no DATABASE_URL)' : 'use the Porchlight that wrote it'}`);
  }
}

/**
 * Copies `source` (SQLite) into `target` (PostgreSQL), both stores of `list`. The target is
 * migrated to the list's newest version first. Resolves to the rows copied per table.
 */
export async function copyStore(source: Database, target: Database, list: MigrationList): Promise<CopiedTable[]> {
  if (source.dialect !== 'sqlite' || target.dialect !== 'postgres') throw new StoreCopyError('a store is copied from SQLite into PostgreSQL');
  await checkSourceVersion(source, list);
  await migrate(target, list);
  const copied: CopiedTable[] = [];
  // The migration lock's transaction: no other process migrates, or copies, meanwhile.
  await target.migrationTransaction(
    async (tx) => {
      const tables = await tablesInOrder(tx);
      for (const table of tables) {
        if (await tx.get(`SELECT 1 AS found FROM ${quote(table)} LIMIT 1`)) throw new StoreCopyError(`the ${list.store} store in PostgreSQL is not empty (table ${table} has rows): copy into an empty database`);
      }
      for (const table of tables) {
        const columns = await columnsOf(tx, table);
        const names = columns.map((column) => quote(column.name)).join(', ');
        const rows = await source.all(`SELECT ${names} FROM ${quote(table)}`).catch((error: unknown) => {
          throw new StoreCopyError(`cannot read table ${table} from the ${list.store} file: ${error instanceof Error ? error.message : String(error)}`);
        });
        for (let start = 0; start < rows.length; start += BATCH_ROWS) {
          const batch = rows.slice(start, start + BATCH_ROWS);
          const one = `(${columns.map(() => '?').join(', ')})`;
          const params: SqlParam[] = batch.flatMap((row) => columns.map((column) => row[column.name] ?? null));
          // The copied ids are kept, also in a GENERATED ALWAYS identity (the API's "rowid" of SQLite's implicit column).
          const overriding = columns.some((column) => column.identity) ? ' OVERRIDING SYSTEM VALUE' : '';
          await tx.run(`INSERT INTO ${quote(table)} (${names})${overriding} VALUES ${batch.map(() => one).join(', ')}`, ...params);
        }
        for (const column of columns.filter((candidate) => candidate.identity)) {
          // The next generated id follows the highest one copied.
          await tx.run(`SELECT setval(pg_get_serial_sequence(?, ?), COALESCE((SELECT MAX(${quote(column.name)}) FROM ${quote(table)}), 0) + 1, false)`, table, column.name);
        }
        copied.push({ table, rows: rows.length });
      }
    },
    { rebuildsTables: false },
  );
  return copied;
}
