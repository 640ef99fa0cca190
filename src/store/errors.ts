/** A row holds something the code cannot read back; the message names the table and the column. */
export class StoreDataError extends Error {
  override name = 'StoreDataError';
}

/** The database was migrated by a newer Porchlight than this one: refused before anything is written. */
export class StoreVersionError extends Error {
  override name = 'StoreVersionError';

  readonly store: string;
  readonly found: number;
  readonly supported: number;

  constructor(store: string, found: number, supported: number) {
    super(`the ${store} database is at schema version ${found}, newer than this Porchlight knows (${supported}): run the newer Porchlight, or restore a backup made with this one`);
    this.store = store;
    this.found = found;
    this.supported = supported;
  }
}

/**
 * The database server cannot be used: unreachable, refusing the connection, or too old. The
 * message is one line naming the problem and never the URL (it may carry a password).
 */
export class StoreConnectError extends Error {
  override name = 'StoreConnectError';
}

/**
 * The database server cannot be used right now (it stopped, restarts, fails over, or the only
 * server reachable is read-only): the statement did not run, or its transaction was rolled back.
 * One exception: a call given up because the server did not answer in time (postgres.ts,
 * ANSWER_WAIT_MS) may or may not have been applied; the stores guard every state change in SQL,
 * so trying again is safe. Callers answer "try again later" (HTTP 503 with Retry-After) or wait
 * and retry. `retryAfterSeconds` is a hint for that answer.
 */
export class StoreUnavailableError extends Error {
  override name = 'StoreUnavailableError';
  readonly retryAfterSeconds: number;

  constructor(message: string, retryAfterSeconds = 10) {
    super(message);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}
