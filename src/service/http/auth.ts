import type { IncomingMessage } from 'node:http';
import type { Principal } from '../store/organizations.ts';
import type { Store } from '../store/store.ts';
import { UnauthorizedError } from './errors.ts';

/** The token of an `Authorization: Bearer <token>` header, or null. */
export function bearerToken(header: string | undefined): string | null {
  const match = header?.match(/^Bearer[ \t]+(\S+)[ \t]*$/i);
  return match?.[1] ?? null;
}

/** Resolves the caller's organization from its API key, or throws 401. */
export async function authenticate(req: IncomingMessage, store: Store): Promise<Principal> {
  const header = req.headers.authorization;
  if (header === undefined || header.trim() === '') throw new UnauthorizedError('missing');
  const token = bearerToken(header);
  const principal = token ? await store.organizations.findByApiKey(token) : null;
  if (!principal) throw new UnauthorizedError('invalid');
  return principal;
}
