/**
 * A PostgreSQL LISTEN on a dedicated connection of its own (never a pooled one: a LISTEN lives as
 * long as its session, so it needs a direct or session-mode connection, not PgBouncer's
 * transaction mode), that comes back by itself. Nothing is replayed to a listener that was
 * disconnected, so `onListening` is told on every (re)connect, once the LISTEN is in place: the
 * caller resyncs there. While the connection is down it is tried again after a growing wait.
 *
 * On the `postgres` driver, like the rest of the floor, with its `onnotify` and `onclose` hooks on
 * a one-connection instance rather than its `sql.listen`: that one re-listens on its own but
 * tells nobody whether it is listening, and the state is what the metrics and the resync need.
 */
import postgres from 'postgres';

export type ListenState = 'connecting' | 'listening' | 'closed';

export interface ListenOptions {
  channel: string;
  onNotify(payload: string): void;
  /** The LISTEN is in place (first time, or after a lost connection). */
  onListening(): void;
  /** The state changed (connecting, listening, closed). */
  onState?(state: ListenState): void;
  /** Shown in pg_stat_activity (so an operator, or a test, can tell the listener apart). */
  applicationName?: string;
  firstRetryMs?: number;
  maxRetryMs?: number;
}

export interface PostgresListener {
  state(): ListenState;
  /** Stops listening and closes the connection. */
  close(): Promise<void>;
}

const quoteIdentifier = (name: string) => `"${name.replace(/"/g, '""')}"`;

export function listenPostgres(url: string, options: ListenOptions): PostgresListener {
  const firstRetryMs = options.firstRetryMs ?? 500;
  const maxRetryMs = options.maxRetryMs ?? 10_000;
  let state: ListenState = 'connecting';
  let retryMs = firstRetryMs;
  let timer: NodeJS.Timeout | null = null;
  let attempting = false;
  const closed = () => state === 'closed';
  const setState = (next: ListenState) => {
    if (next === state) return;
    state = next;
    options.onState?.(next);
  };
  // The driver takes `onnotify` (its own sql.listen uses it) but does not declare it.
  const notifications = {
    onnotify: (channel: string, payload: string) => {
      if (channel === options.channel && !closed()) options.onNotify(payload);
    },
  };
  const sql = postgres(url, {
    ...notifications,
    max: 1,
    // The session is the LISTEN: it must not end for being idle or old.
    idle_timeout: 0,
    max_lifetime: null,
    connect_timeout: 10,
    fetch_types: false,
    onnotice: () => undefined,
    connection: { application_name: options.applicationName ?? 'porchlight-listen' },
    onclose: () => {
      if (state === 'closed') return;
      setState('connecting');
      schedule();
    },
  });

  function schedule(): void {
    if (state === 'closed' || attempting || timer) return;
    timer = setTimeout(() => {
      timer = null;
      void attempt();
    }, retryMs);
    timer.unref();
    retryMs = Math.min(retryMs * 2, maxRetryMs);
  }

  async function attempt(): Promise<void> {
    if (state === 'closed') return;
    attempting = true;
    try {
      await sql.unsafe(`LISTEN ${quoteIdentifier(options.channel)}`);
      attempting = false;
      if (closed()) return;
      retryMs = firstRetryMs;
      setState('listening');
      options.onListening();
    } catch {
      attempting = false;
      if (!closed()) setState('connecting');
      schedule();
    }
  }

  void attempt();
  return {
    state: () => state,
    async close() {
      setState('closed');
      if (timer) clearTimeout(timer);
      await sql.end({ timeout: 1 }).catch(() => undefined);
    },
  };
}
