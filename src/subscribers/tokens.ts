/**
 * Secrets in links. Confirmation tokens are random and only their SHA-256 is stored, so the
 * store alone cannot confirm anyone. Manage (unsubscribe) tokens must be reproducible for every
 * mail, so they are an HMAC of the subscriber's id under the store's own key; deleting the
 * subscriber makes every old link void.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export function newToken(): string {
  return randomBytes(32).toString('base64url');
}


export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Tokens are base64url of fixed sizes; anything else is refused before any look-up. */
export function isTokenShaped(value: unknown): value is string {
  return typeof value === 'string' && /^[A-Za-z0-9_-]{16,200}(?:\.[A-Za-z0-9_-]{20,100})?$/.test(value);
}

function mac(key: string, id: string): string {
  return createHmac('sha256', key).update(`manage:${id}`).digest('base64url');
}

export function manageToken(key: string, subscriberId: string): string {
  return `${subscriberId}.${mac(key, subscriberId)}`;
}

/** The subscriber id a manage token names, or null when it was not made with `key`. */
export function readManageToken(key: string, token: unknown): string | null {
  if (!isTokenShaped(token)) return null;
  const dot = token.indexOf('.');
  if (dot < 0) return null;
  const id = token.slice(0, dot);
  const given = Buffer.from(token.slice(dot + 1));
  const expected = Buffer.from(mac(key, id));
  return given.length === expected.length && timingSafeEqual(given, expected) ? id : null;
}
