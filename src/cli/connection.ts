/**
 * Where the CLI sends its requests, first match wins:
 * 1. --api-url / STATUS_API_URL with the key from --api-key-file / STATUS_API_KEY (both needed);
 * 2. neither set: the embedded API of a `npm start` on this machine, as it recorded itself in
 *    CACHE_DIR (see src/server/local-connection.ts).
 * The key is never taken as a flag value (it would sit in shell history and `ps`), never printed.
 */
import { readFile } from 'node:fs/promises';
import { DEFAULT_CACHE_DIR, localConnectionPath, readLocalConnection } from '../server/local-connection.ts';
import { UsageError } from './cli-error.ts';

export interface Connection {
  apiUrl: string;
  apiKey: string;
  /** The site's main address for page URLs, when known. */
  siteUrl: string | null;
}

export interface ConnectionFlags {
  apiUrl?: string | undefined;
  apiKeyFile?: string | undefined;
  siteUrl?: string | undefined;
}

const nonEmpty = (value: string | undefined) => (value?.trim() ? value.trim() : undefined);

async function readKeyFile(file: string): Promise<string> {
  const text = await readFile(file, 'utf8').catch((error: unknown) => {
    const code = error instanceof Error && 'code' in error ? String(error.code) : 'unreadable';
    throw new UsageError(`--api-key-file ${file}: cannot read it (${code})`);
  });
  const key = text.trim();
  if (!key) throw new UsageError(`--api-key-file ${file}: the file is empty`);
  return key;
}

export async function resolveConnection(flags: ConnectionFlags, env: NodeJS.ProcessEnv): Promise<Connection> {
  const apiUrl = nonEmpty(flags.apiUrl) ?? nonEmpty(env.STATUS_API_URL);
  const apiKey = flags.apiKeyFile ? await readKeyFile(flags.apiKeyFile) : nonEmpty(env.STATUS_API_KEY);
  const siteUrl = nonEmpty(flags.siteUrl) ?? nonEmpty(env.SITE_PUBLIC_URL) ?? null;
  if (apiUrl && apiKey) return { apiUrl, apiKey, siteUrl };
  if (apiUrl) throw new UsageError('an API key is needed with the API URL: set STATUS_API_KEY or pass --api-key-file FILE');
  if (apiKey) throw new UsageError('an API URL is needed with the key: set STATUS_API_URL or pass --api-url URL');
  const cacheDir = nonEmpty(env.CACHE_DIR) ?? DEFAULT_CACHE_DIR;
  const local = await readLocalConnection(cacheDir);
  if (!local) {
    throw new UsageError(
      `no API configured: set STATUS_API_URL and STATUS_API_KEY, or run \`npm start\` here (it records its embedded API in ${localConnectionPath(cacheDir)})`,
    );
  }
  return { apiUrl: local.apiUrl, apiKey: local.apiKey, siteUrl: siteUrl ?? local.siteUrl };
}

/**
 * The site's own address, for commands that use its public routes rather than the API
 * (`porchlight subscribe`): --site-url, else SITE_PUBLIC_URL, else the `npm start` on this machine.
 */
export async function resolveSiteUrl(flags: Pick<ConnectionFlags, 'siteUrl'>, env: NodeJS.ProcessEnv): Promise<string> {
  const given = nonEmpty(flags.siteUrl) ?? nonEmpty(env.SITE_PUBLIC_URL);
  const cacheDir = nonEmpty(env.CACHE_DIR) ?? DEFAULT_CACHE_DIR;
  const siteUrl = given ?? (await readLocalConnection(cacheDir))?.siteUrl;
  if (!siteUrl) throw new UsageError(`no site address: pass --site-url URL or set SITE_PUBLIC_URL, or run \`npm start\` here (it records its address in ${localConnectionPath(cacheDir)})`);
  if (!URL.canParse(siteUrl) || !/^https?:$/.test(new URL(siteUrl).protocol)) throw new UsageError(`--site-url must be an http(s) address (got "${siteUrl}")`);
  return siteUrl;
}
