/**
 * Secrets of the audiences: invitation links (the invitation's id signed with the store's key,
 * so a guessed id is worthless and a row leaked without the key opens nothing), and random bearer
 * tokens (sessions, feed addresses) of which the store keeps only a SHA-256.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

function signature(key: string, id: string): string {
  return createHmac('sha256', key).update(`invitation:${id}`).digest('base64url');
}

/** The secret part of an invitation link: `<id>.<signature>`. */
export function invitationToken(key: string, id: string): string {
  return `${id}.${signature(key, id)}`;
}

/** The invitation id a token names, when its signature is right; null otherwise. */
export function invitationIdOf(key: string, token: string): string | null {
  const match = /^([a-z]{2,8}_[A-Za-z0-9_-]{16})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return null;
  const [, id = '', given = ''] = match;
  const expected = Buffer.from(signature(key, id));
  const actual = Buffer.from(given);
  return expected.length === actual.length && timingSafeEqual(expected, actual) ? id : null;
}
