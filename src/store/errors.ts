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
 * Callers answer "try again later" (HTTP 503 with Retry-After) or wait and retry; nothing half
 * done was kept. `retryAfterSeconds` is a hint for that answer.
 */
export class StoreUnavailableError extends Error {
  override name = 'StoreUnavailableError';
  readonly retryAfterSeconds: number;

  constructor(message: string, retryAfterSeconds = 10) {
    super(message);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}
