import { randomBytes } from 'node:crypto';

/** Opaque identifiers: a short type prefix plus 16 random base64url characters. */
export type IdPrefix = 'org' | 'key' | 'mon' | 'chk' | 'page' | 'link' | 'sub' | 'inc' | 'upd' | 'mnt' | 'chn' | 'dlv' | 'att';

export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomBytes(12).toString('base64url')}`;
}
