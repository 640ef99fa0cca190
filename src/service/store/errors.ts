/** The database holds something the code cannot read back (wrong type, bad JSON). */
export class StoreDataError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StoreDataError';
  }
}

/** The database file was migrated by a newer Porchlight than this one (the same words as src/store's). */
export class StoreVersionError extends Error {
  constructor(found: number, supported: number) {
    super(`the API database is at schema version ${found}, newer than this Porchlight knows (${supported}): run the newer Porchlight, or restore a backup made with this one`);
    this.name = 'StoreVersionError';
  }
}
