/**
 * Where a running `npm start` tells commands on the same machine how to reach its embedded API:
 * `<CACHE_DIR>/local-api.json`, readable by its owner only (it holds the API key), written on
 * start and removed on a clean stop. The `porchlight` CLI reads it when neither STATUS_API_URL nor
 * STATUS_API_KEY is set, so a newcomer can post to the demo without copying a key.
 */
import { readFile, unlink } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomically } from '../site/data/atomic-file.ts';

export const LOCAL_CONNECTION_FILE = 'local-api.json';
export const DEFAULT_CACHE_DIR = './data/cache';

export interface LocalConnection {
  apiUrl: string;
  apiKey: string;
  /** The site's own address, for the page URLs the CLI shows. */
  siteUrl: string;
  pid: number;
}

const nonEmpty = (value: unknown): value is string => typeof value === 'string' && value.length > 0;

// A hand check, not a zod schema: the serving thread writes and removes this file, and zod is
// kept off that thread (threads/config-worker.ts).
function isLocalConnection(value: unknown): value is LocalConnection {
  if (typeof value !== 'object' || value === null) return false;
  const { apiUrl, apiKey, siteUrl, pid } = value as Record<string, unknown>;
  return nonEmpty(apiUrl) && nonEmpty(apiKey) && nonEmpty(siteUrl) && Number.isInteger(pid);
}

export function localConnectionPath(cacheDir: string): string {
  return path.join(cacheDir, LOCAL_CONNECTION_FILE);
}

/** Nothing is written when CACHE_DIR is ':memory:' (no folder to share). */
export async function writeLocalConnection(cacheDir: string, connection: LocalConnection): Promise<string | null> {
  if (cacheDir === ':memory:') return null;
  const file = localConnectionPath(cacheDir);
  await writeFileAtomically(file, `${JSON.stringify(connection, null, 2)}\n`, { mode: 0o600 });
  return file;
}

/** Removes the file only if it is still this process's (a second `npm start` may have replaced it). */
export async function removeLocalConnection(cacheDir: string, pid: number): Promise<void> {
  const current = await readLocalConnection(cacheDir);
  if (current?.pid === pid) await unlink(localConnectionPath(cacheDir)).catch(() => undefined);
}

/** The recorded connection, or null when there is none or it is unreadable. */
export async function readLocalConnection(cacheDir: string): Promise<LocalConnection | null> {
  if (cacheDir === ':memory:') return null;
  const text = await readFile(localConnectionPath(cacheDir), 'utf8').catch(() => null);
  if (text === null) return null;
  try {
    const parsed: unknown = JSON.parse(text);
    if (!isLocalConnection(parsed)) return null;
    const { apiUrl, apiKey, siteUrl, pid } = parsed;
    return { apiUrl, apiKey, siteUrl, pid };
  } catch {
    return null;
  }
}
