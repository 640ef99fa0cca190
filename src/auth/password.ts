/**
 * Passwords: node's scrypt (memory-hard; no native dependency), a random 16-byte salt per hash, a
 * self-describing stored form `scrypt$N$r$p$salt$hash` (so the cost can grow without breaking
 * old hashes), compared in constant time. Length 12 to 256 characters and nothing else (no
 * composition rules, NIST SP 800-63B); the text is NFC-normalized so one password typed on two
 * keyboards is one password.
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 256;

export interface ScryptCost {
  N: number;
  r: number;
  p: number;
}

/** 2^15 × 8 × 128 bytes = 32 MiB and tens of milliseconds per hash: OWASP's scrypt floor is 2^17 with r=8 at p=1 for new systems; 2^15 keeps sign-in cheap on small hosts. */
export const DEFAULT_COST: ScryptCost = { N: 2 ** 15, r: 8, p: 1 };
const KEY_LENGTH = 32;

export type PasswordProblem = 'tooShort' | 'tooLong';

/** Why a new password is refused, or null when it is acceptable. */
export function passwordProblem(password: string): PasswordProblem | null {
  const length = [...password.normalize('NFC')].length;
  if (length < PASSWORD_MIN_LENGTH) return 'tooShort';
  if (length > PASSWORD_MAX_LENGTH) return 'tooLong';
  return null;
}

function derive(password: string, salt: Buffer, cost: ScryptCost, length = KEY_LENGTH): Promise<Buffer> {
  const options: ScryptOptions = { N: cost.N, r: cost.r, p: cost.p, maxmem: 256 * cost.N * cost.r + 1024 * 1024 };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, length, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

/** The stored form of a new password (check it with passwordProblem first). */
export async function hashPassword(password: string, cost: ScryptCost = DEFAULT_COST): Promise<string> {
  if (passwordProblem(password)) throw new RangeError(`password must be ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters`);
  const salt = randomBytes(16);
  const key = await derive(password, salt, cost);
  return ['scrypt', cost.N, cost.r, cost.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

const STORED = /^scrypt\$(\d{1,8})\$(\d{1,3})\$(\d{1,3})\$([A-Za-z0-9_-]{16,64})\$([A-Za-z0-9_-]{40,90})$/;

/**
 * Whether `password` matches `stored`. A null `stored` (no such account) still costs one hash,
 * so the answer's timing does not tell which accounts exist. Text that is not a stored hash is
 * never a match.
 */
export async function verifyPassword(password: string, stored: string | null, cost: ScryptCost = DEFAULT_COST): Promise<boolean> {
  const match = stored === null ? null : STORED.exec(stored);
  if (!match || password.length > PASSWORD_MAX_LENGTH * 4) {
    await derive('not a password', randomBytes(16), cost);
    return false;
  }
  const [N, r, p] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (N < 2 || (N & (N - 1)) !== 0 || N > 2 ** 20 || r < 1 || p < 1) return false;
  const expected = Buffer.from(match[5] ?? '', 'base64url');
  const key = await derive(password, Buffer.from(match[4] ?? '', 'base64url'), { N, r, p }, expected.length);
  return key.length === expected.length && timingSafeEqual(key, expected);
}
