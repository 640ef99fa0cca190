import { chmodSync, closeSync, constants, existsSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Creates a database file readable by its owner only (0600), with its folder, before the database
 * opens it (SQLite gives its -wal and -shm files the file's mode). A file left by an older version
 * with a wider mode is narrowed when possible; a read-only or foreign file is left as it is, and
 * the database reports any real problem when it opens it.
 */
export function createPrivateFile(path: string): void {
  mkdirSync(dirname(path), { recursive: true });
  closeSync(openSync(path, constants.O_CREAT | constants.O_RDWR, 0o600));
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    try {
      if (existsSync(file)) chmodSync(file, 0o600);
    } catch {
      // Not ours to change.
    }
  }
}
