import { randomBytes } from 'node:crypto';

/**
 * Opaque identifiers, the same scheme as the embedded API's: a short type prefix, `_`, then 16
 * random base64url characters (96 bits). The prefix says what an id names in a log or a link;
 * ids made before the scheme (bare random text) stay valid, since nothing parses an id.
 */
export function newId(prefix: string): string {
  if (!/^[a-z]{2,8}$/.test(prefix)) throw new TypeError(`id prefix ${JSON.stringify(prefix)}: expected 2 to 8 lower-case letters`);
  return `${prefix}_${randomBytes(12).toString('base64url')}`;
}
