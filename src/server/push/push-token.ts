/**
 * The secret part of the push URL: given by PUSH_TOKEN, or made once (32 random bytes) and kept
 * in CACHE_DIR, so the URL the API posts to stays the same across restarts. Never logged.
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomically } from '../../site/data/atomic-file.ts';

export const PUSH_TOKEN_PATTERN = /^[A-Za-z0-9_-]{32,128}$/;
export const PUSH_TOKEN_FILE = 'push-token';

export function newPushToken(): string {
  return randomBytes(32).toString('base64url');
}

/** The configured token, else the kept one, else a new one (kept when CACHE_DIR is a folder). */
export async function pushToken(configured: string | undefined, cacheDir: string): Promise<string> {
  if (configured) return configured;
  if (cacheDir === ':memory:') return newPushToken();
  const file = path.join(cacheDir, PUSH_TOKEN_FILE);
  const kept = await readFile(file, 'utf8').then((text) => text.trim(), () => '');
  if (PUSH_TOKEN_PATTERN.test(kept)) return kept;
  const token = newPushToken();
  await writeFileAtomically(file, `${token}\n`, { mode: 0o600 });
  return token;
}
