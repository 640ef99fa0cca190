/** The database holds something the code cannot read back (wrong type, bad JSON). */
export class StoreDataError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StoreDataError';
  }
}

/** The database file was written by a newer schema than this code knows. */
export class StoreVersionError extends Error {
  constructor(found: number, supported: number) {
    super(`database schema version ${found} is newer than the supported version ${supported}`);
    this.name = 'StoreVersionError';
  }
}
