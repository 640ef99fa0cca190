import postgres from 'postgres';
import type { Database, DialectName, RunResult, Transaction } from './database.ts';
import { parseDatabaseUrl } from './database-url.ts';
import { StoreConnectError, StoreUnavailableError } from './errors.ts';
import { numberPlaceholders } from './placeholders.ts';
import type { Row, SqlParam } from './rows.ts';

/** The oldest server Porchlight runs on (`server_version_num`). */
export const OLDEST_SERVER = 150_000;

/**
 * The one advisory lock of Porchlight's migrations in a database, taken per migration
 * transaction (`pg_advisory_xact_lock`, released at commit or rollback, also by a dead
 * connection), so that one process migrates while the others wait, then find the work done.
 */
const MIGRATION_LOCK = 7_063_287_548_712_001n;

/**
 * Held (session-level, on a connection of its own) for a whole migration run, so that a second
 * process reads the schema version after the first has finished and reports "up to date" rather
 * than a half-way version. A different key from MIGRATION_LOCK, which the run's own transactions
 * take on other connections of the pool.
 */
const MIGRATION_RUN_LOCK = 7_063_287_548_712_002n;

/** Every transaction's isolation level (see database.ts: state changes are guarded in SQL). */
const ISOLATION = 'isolation level read committed';

/** What `timestamptz` looks like with TimeZone UTC and DateStyle ISO (fraction trimmed, up to microseconds). */
const PG_TIME = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})(?:\.(\d{1,6}))?\+00$/;

/**
 * A `timestamptz` as the floor's time text (time.ts), so that a row reads the same on both
 * dialects. Anything else (BC, infinity, beyond year 9999) is handed on as PostgreSQL wrote it,
 * and the strict reader names the column.
 */
export function timeFromPostgres(text: string): string {
  const match = PG_TIME.exec(text);
  return match ? `${match[1]}T${match[2]}.${(match[3] ?? '').padEnd(3, '0').slice(0, 3)}Z` : text;
}

/** int8 (COUNT, identity keys) as a number when it fits, as SQLite hands it back; a bigint beyond. */
function int8(text: string): number | bigint {
  const value = BigInt(text);
  return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value;
}

/** Whether a server version (`server_version_num`) is one Porchlight runs on; throws StoreConnectError if not. */
export function checkServerVersion(versionNum: number, version: string): void {
  if (versionNum < OLDEST_SERVER) throw new StoreConnectError(`the PostgreSQL server (DATABASE_URL) is version ${version}; Porchlight needs PostgreSQL 15 or newer`);
}

const NETWORK_CODES = new Set(['ECONNREFUSED', 'EPIPE', 'ECONNABORTED', 'EADDRNOTAVAIL', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ETIMEDOUT', 'ECONNRESET', 'CONNECT_TIMEOUT', 'CONNECTION_CLOSED', 'CONNECTION_ENDED', 'CONNECTION_DESTROYED']);

/** A driver's connection failure as one line naming the servers (never the URL, which may carry a password). */
function connectError(error: unknown, hosts: readonly string[]): Error {
  if (error instanceof StoreConnectError) return error;
  const where = hosts.join(', ');
  const code = error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
  if (code && NETWORK_CODES.has(code)) return new StoreConnectError(`cannot reach the PostgreSQL server at ${where} (DATABASE_URL): ${code}`);
  if (error instanceof postgres.PostgresError) return new StoreConnectError(`the PostgreSQL server at ${where} (DATABASE_URL) refused: ${error.message}`);
  return new StoreConnectError(`cannot use the PostgreSQL server at ${where} (DATABASE_URL): ${error instanceof Error ? error.message : String(error)}`);
}

/**
 * SQLSTATEs that say the server, not the statement, is the problem: connection exceptions (08…),
 * the server shutting down or starting (57P01–57P03), too many connections (53300), and a write
 * reaching a read-only server (25006: a standby, or a primary being demoted).
 */
const UNAVAILABLE_STATES = /^(08...|57P0[123]|53300|25006)$/;

/** A server that answers but takes no writes: the pool's connections there must not be kept. */
const READ_ONLY_STATE = '25006';

/**
 * A failure of the server or of the way to it as StoreUnavailableError (callers answer 503 and
 * retry); anything else (a constraint, a bad statement) is handed on as it is.
 */
export function unavailableError(error: unknown): StoreUnavailableError | null {
  if (error instanceof StoreUnavailableError) return error;
  const code = error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
  if (code === undefined) return null;
  if (NETWORK_CODES.has(code)) return new StoreUnavailableError(`the PostgreSQL server cannot be reached (${code})`);
  if (error instanceof postgres.PostgresError && UNAVAILABLE_STATES.test(code)) {
    return new StoreUnavailableError(code === READ_ONLY_STATE ? 'the PostgreSQL server reached is read-only (a standby, or a fail-over under way)' : `the PostgreSQL server is unavailable (SQLSTATE ${code})`);
  }
  return null;
}

/**
 * `target_session_attrs=read-write` as libpq means it: not a hot standby. The driver reads
 * `read-write` as "default_transaction_read_only is off", which a hot standby also reports (it is
 * read-only through `in_hot_standby`), so a standby listed first would be kept and every write
 * refused; its `primary` checks `in_hot_standby`. A primary made read-only by hand (fenced) is
 * still accepted by that check: its writes fail with 25006, and the pool is then replaced (guarded).
 */
function sessionAttrs(url: string): { target_session_attrs?: 'primary' } {
  try {
    return new URL(url).searchParams.get('target_session_attrs') === 'read-write' ? { target_session_attrs: 'primary' } : {};
  } catch {
    // Multi-host URLs are not WHATWG URLs; read the parameter from the query text.
    return /[?&]target_session_attrs=read-write(?:&|$)/.test(url) ? { target_session_attrs: 'primary' } : {};
  }
}

const TIMED_OUT = Symbol('timed out');

/** Resolves to TIMED_OUT after `ms`, without keeping the process alive. */
function delay(ms: number): Promise<typeof TIMED_OUT> {
  return new Promise((resolve) => setTimeout(() => resolve(TIMED_OUT), ms).unref());
}

const quoteIdentifier = (name: string) => `"${name.replace(/"/g, '""')}"`;

type Driver = postgres.Sql<{ bigint: number | bigint; time: string }>;
type DriverSql = Driver | postgres.TransactionSql<{ bigint: number | bigint; time: string }>;

function query(sql: DriverSql, text: string, params: SqlParam[]): postgres.PendingQuery<postgres.Row[]> {
  return sql.unsafe(numberPlaceholders(text), params as postgres.ParameterOrJSON<never>[]);
}

/**
 * How long a statement or transaction waits for a connection to a server that takes writes. The
 * driver, asked for `target_session_attrs`, tries the hosts over and over while none qualifies (a
 * primary lost, its standby not yet promoted) and never fails the waiting statement itself.
 */
export const CONNECTION_WAIT_MS = 5_000;

/**
 * The longest the driver waits before connecting again after a failed attempt. Its own delay
 * grows with every failed connect of the pool (shared), up to 20 s: after a 30 s outage a
 * statement handed to a connection still waiting out that delay got no connection within
 * CONNECTION_WAIT_MS although the server was back (issue 29). Attempts are only made for
 * statements that wait, and the callers already retry with their own growing delays.
 */
export const RECONNECT_DELAY_MAX_MS = 500;

/** The driver's delay (seconds) before the next connect after `retries` failed ones: 25 ms doubling, capped. */
export function reconnectDelaySeconds(retries: number): number {
  return Math.min(RECONNECT_DELAY_MAX_MS, 25 * 2 ** Math.min(retries, 10)) / 1000;
}

/**
 * How long a statement or a transaction may take from the call until it settles: beyond it the
 * call is given up, so that a caller working in rounds (the outboxes' senders, the schedulers)
 * always gets an answer, its round ends and the next one is scheduled (issue 29: a call that
 * never settles would stop such a loop for good). Far above any statement of the stores; the
 * migrations and the SQLite copy (migrationTransaction) are not bounded.
 */
export const ANSWER_WAIT_MS = 60_000;

/** Given up after the statement was sent: the server may or may not have applied it. */
const NO_ANSWER = (ms: number) => new StoreUnavailableError(`the PostgreSQL server gave no answer within ${ms / 1000} s; the change may or may not have been applied`);

const NO_SERVER = () => new StoreUnavailableError(`no PostgreSQL server that takes writes answered within ${CONNECTION_WAIT_MS / 1000} s`);

/** A statement not yet sent to a server (the driver's Query: `state` is set once it is). */
const notSent = (pending: postgres.PendingQuery<postgres.Row[]>) => (pending as unknown as { state: unknown }).state === null;

/** The statements of one transaction, on the one connection the driver reserved for it. */
function transactionOf(sql: postgres.TransactionSql<{ bigint: number | bigint; time: string }>): Transaction {
  return {
    all: async (text, ...params) => [...(await query(sql, text, params))] as Row[],
    get: async (text, ...params) => (await query(sql, text, params))[0] as Row | undefined,
    run: async (text, ...params) => ({ changes: (await query(sql, text, params)).count }),
    savepoint: async (work) => (await sql.savepoint((inner) => work(transactionOf(inner)))) as Awaited<ReturnType<typeof work>>,
    execScript: async (script) => {
      // No parameters: the simple protocol, which takes several statements.
      await sql.unsafe(script);
    },
    // PostgreSQL has no legacy version record: schema_migrations is the only one.
    noteLegacyVersion: async () => undefined,
  };
}

export interface PostgresOptions {
  /**
   * The PostgreSQL schema (namespace) of this store's tables, created when missing: each store
   * keeps its own, with its own `schema_migrations`, so that several stores share one database.
   */
  schema: string;
  /** Connections in the pool at most. */
  maxConnections?: number;
  /** Seconds to wait for a connection before giving up. */
  connectTimeoutSeconds?: number;
  /** How long a statement or transaction may take before it is given up (default ANSWER_WAIT_MS; tests shorten it). */
  answerWaitMs?: number;
}

/**
 * The PostgreSQL dialect on the `postgres` driver: a pool of connections, `?` placeholders
 * numbered, each transaction on one reserved connection at READ COMMITTED (the default; stores
 * guard every state change in SQL), a nested one as a savepoint, `timestamptz` read back as the
 * floor's time text, int8 as a number, and migrations under an advisory lock.
 */
export class PostgresDatabase implements Database {
  readonly dialect: DialectName = 'postgres';
  private sql: Driver;
  private readonly connect: () => Driver;
  private closed = false;
  private readonly answerWaitMs: number;

  private constructor(connect: () => Driver, sql: Driver, answerWaitMs: number) {
    this.connect = connect;
    this.sql = sql;
    this.answerWaitMs = answerWaitMs;
  }

  /**
   * A statement on the pool, given up (cancelled before it is sent, never run) when no connection
   * comes within CONNECTION_WAIT_MS; a statement already sent is awaited until ANSWER_WAIT_MS.
   * Giving up replaces the pool, which ends the driver's attempts to connect (and, after an
   * unanswered statement, closes its connection, so the server rolls back what it left open).
   */
  private statement(text: string, params: SqlParam[]): Promise<postgres.RowList<postgres.Row[]>> {
    return this.guarded(async (sql) => {
      const pending = query(sql, text, params);
      const first = await Promise.race([pending, delay(CONNECTION_WAIT_MS)]);
      if (first !== TIMED_OUT) return first as postgres.RowList<postgres.Row[]>;
      pending.catch(() => undefined);
      if (notSent(pending)) {
        void pending.cancel();
        this.replacePool(sql);
        throw NO_SERVER();
      }
      const answer = await Promise.race([pending, delay(this.answerWaitMs - CONNECTION_WAIT_MS)]);
      if (answer !== TIMED_OUT) return answer as postgres.RowList<postgres.Row[]>;
      // Cancelled on the server too (a statement waiting for a lock would otherwise still run when it is granted).
      void Promise.resolve(pending.cancel() as unknown).catch(() => undefined);
      this.replacePool(sql);
      throw NO_ANSWER(this.answerWaitMs);
    });
  }

  /**
   * Runs a call on the pool, turning a failure of the server into StoreUnavailableError and
   * replacing the pool, so the next call connects afresh: after a write refused as read-only (the
   * pool holds connections to a standby, or a demoted primary) the driver picks a read-write
   * server among DATABASE_URL's hosts (`target_session_attrs=read-write`).
   */
  private async guarded<T>(call: (sql: Driver) => Promise<T>): Promise<T> {
    const sql = this.sql;
    try {
      return await call(sql);
    } catch (error) {
      const unavailable = unavailableError(error);
      if (!unavailable) throw error;
      // Every failure of the server or of the way to it replaces the pool, not only a read-only
      // one: a connection that saw the server shut down keeps its last error (57P01) and fails
      // the first statement it gets after it reconnects, the server long back (issue 29).
      this.replacePool(sql);
      throw unavailable;
    }
  }

  private replacePool(stale: Driver): void {
    if (this.closed || this.sql !== stale) return;
    this.sql = this.connect();
    void stale.end({ timeout: 5 }).catch(() => undefined);
  }

  /**
   * Connects, checks the server (15 or newer) and makes the store's schema if missing. Rejects
   * with a StoreConnectError (one line, without the URL) when the server cannot be used.
   */
  static async open(url: string, options: PostgresOptions): Promise<PostgresDatabase> {
    const { hosts } = parseDatabaseUrl(url);
    if (!/^[a-z][a-z0-9_]{0,62}$/.test(options.schema)) throw new TypeError(`PostgreSQL schema name ${JSON.stringify(options.schema)}`);
    const connect = (): Driver => postgres(url, {
      ...sessionAttrs(url),
      max: options.maxConnections ?? 5,
      connect_timeout: options.connectTimeoutSeconds ?? 10,
      backoff: reconnectDelaySeconds,
      // Notices ("schema already exists, skipping") are not Porchlight's to print.
      onnotice: () => undefined,
      connection: { application_name: 'porchlight', search_path: options.schema, TimeZone: 'UTC', DateStyle: 'ISO, MDY' },
      types: {
        bigint: { to: 20, from: [20], serialize: (value: number | bigint) => String(value), parse: int8 },
        time: { to: 1184, from: [1184], serialize: (value: string) => value, parse: timeFromPostgres },
      },
    });
    const sql = connect();
    try {
      const [server] = await sql.unsafe("SELECT current_setting('server_version_num')::int AS num, current_setting('server_version') AS version");
      checkServerVersion(Number(server?.num), String(server?.version));
      const exists = await sql.unsafe('SELECT 1 AS found FROM pg_namespace WHERE nspname = $1', [options.schema]);
      if (exists.length === 0) {
        await sql.begin(async (tx) => {
          await tx.unsafe('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
          await tx.unsafe(`CREATE SCHEMA IF NOT EXISTS ${quoteIdentifier(options.schema)}`);
        });
      }
      return new PostgresDatabase(connect, sql, Math.max(CONNECTION_WAIT_MS + 1_000, options.answerWaitMs ?? ANSWER_WAIT_MS));
    } catch (error) {
      await sql.end({ timeout: 1 }).catch(() => undefined);
      throw connectError(error, hosts);
    }
  }

  async all(text: string, ...params: SqlParam[]): Promise<Row[]> {
    return [...(await this.statement(text, params))] as Row[];
  }

  async get(text: string, ...params: SqlParam[]): Promise<Row | undefined> {
    return (await this.statement(text, params))[0] as Row | undefined;
  }

  async run(text: string, ...params: SqlParam[]): Promise<RunResult> {
    return { changes: (await this.statement(text, params)).count };
  }

  async transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    return this.guarded(async (sql) => {
      // Given up when no connection comes in time (as statement()): a transaction that begins
      // after that finds `abandoned` and rolls back before doing anything; given up when it does
      // not settle within ANSWER_WAIT_MS: it rolls back once its work ends, if it ever does.
      let began = false;
      let abandoned = false;
      // Said, not assumed: a server whose default is REPEATABLE READ or SERIALIZABLE would make the
      // stores' guarded updates fail with serialization errors instead of waiting and re-checking.
      const running = sql.begin(ISOLATION, async (tx) => {
        if (abandoned) throw NO_SERVER();
        began = true;
        const result = await work(transactionOf(tx));
        // Given up meanwhile (ANSWER_WAIT_MS): rolled back, not committed behind the caller's back.
        if (abandoned) throw NO_ANSWER(this.answerWaitMs);
        return result;
      }) as Promise<T>;
      const first = await Promise.race([running, delay(CONNECTION_WAIT_MS)]);
      if (first !== TIMED_OUT) return first as T;
      running.catch(() => undefined);
      if (!began) {
        abandoned = true;
        this.replacePool(sql);
        throw NO_SERVER();
      }
      // Begun: awaited until ANSWER_WAIT_MS, then its connection is closed with the pool (the
      // server rolls back, unless the COMMIT had already been applied).
      const rest = await Promise.race([running, delay(this.answerWaitMs - CONNECTION_WAIT_MS)]);
      if (rest !== TIMED_OUT) return rest as T;
      abandoned = true;
      this.replacePool(sql);
      throw NO_ANSWER(this.answerWaitMs);
    });
  }

  async migrationTransaction(work: (tx: Transaction) => Promise<void>): Promise<void> {
    // PostgreSQL's DDL is transactional and checks references as it goes: no rebuild recipe.
    await this.sql.begin(ISOLATION, async (tx) => {
      await tx.unsafe('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      await work(transactionOf(tx));
    });
  }

  async migrationRun<T>(work: () => Promise<T>): Promise<T> {
    const holder = await this.sql.reserve();
    try {
      await holder.unsafe('SELECT pg_advisory_lock($1)', [MIGRATION_RUN_LOCK]);
      try {
        return await work();
      } finally {
        await holder.unsafe('SELECT pg_advisory_unlock($1)', [MIGRATION_RUN_LOCK]);
      }
    } finally {
      holder.release();
    }
  }

  async tableExists(name: string): Promise<boolean> {
    return (await this.get('SELECT 1 AS found FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = ?', name)) !== undefined;
  }

  async legacyVersion(): Promise<number> {
    return 0;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.sql.end({ timeout: 5 });
  }
}
