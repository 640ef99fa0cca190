/**
 * Sign-in throttling with growing delays, kept in the sign-in store so that every replica sees
 * the same counts. Each failed attempt counts against three keys: the account (what was typed in
 * the account field), the client address, and the pair of both. Past a key's free failures, each
 * further failure blocks that key for a doubling delay up to its cap; an attempt while blocked is
 * refused without checking the password (and does not count). Failures are forgotten after a
 * quiet day, and a success clears the account's and the pair's counts.
 *
 * Never a permanent lock-out: the account-wide delay (the only one that reaches the right user on
 * another address) is capped at seconds, while the address and pair delays, which only the
 * guesser's address feels, grow to minutes.
 */
import type { Database } from '../store/database.ts';
import { readRow } from '../store/rows.ts';
import { storedTime } from '../store/time.ts';

export interface DelayRule {
  /** Failures allowed before any delay. */
  free: number;
  /** The first delay; each further failure doubles it. */
  baseMs: number;
  capMs: number;
}

export interface ThrottlePolicy {
  account: DelayRule;
  address: DelayRule;
  pair: DelayRule;
  /** A key quiet this long starts again from zero. */
  forgetAfterMs: number;
}

export const DEFAULT_THROTTLE_POLICY: ThrottlePolicy = {
  account: { free: 5, baseMs: 1_000, capMs: 8_000 },
  address: { free: 20, baseMs: 1_000, capMs: 15 * 60_000 },
  pair: { free: 3, baseMs: 1_000, capMs: 15 * 60_000 },
  forgetAfterMs: 24 * 3_600_000,
};

/** The delay after the `failures`-th failure under `rule` (0 while free). */
export function delayAfter(failures: number, rule: DelayRule): number {
  if (failures <= rule.free) return 0;
  const doublings = Math.min(failures - rule.free - 1, 40);
  return Math.min(rule.capMs, rule.baseMs * 2 ** doublings);
}

/** A refusal says how long to wait, and in the whole seconds a Retry-After header and a sentence give. */
export type ThrottleVerdict = { allowed: true } | { allowed: false; retryAfterMs: number; retryAfterSeconds: number };

/** Keys are bounded and case-folded: an account typed in capitals is the same account. */
function keysOf(account: string, address: string): { kind: keyof Omit<ThrottlePolicy, 'forgetAfterMs'>; key: string }[] {
  const who = account.trim().toLowerCase().slice(0, 320);
  const where = address.slice(0, 100);
  return [
    { kind: 'account', key: `account:${who}` },
    { kind: 'address', key: `address:${where}` },
    { kind: 'pair', key: `pair:${who}|${where}` },
  ];
}

export class SignInThrottle {
  private readonly db: Database;
  readonly policy: ThrottlePolicy;

  constructor(db: Database, policy: ThrottlePolicy = DEFAULT_THROTTLE_POLICY) {
    this.db = db;
    this.policy = policy;
  }

  /** Whether an attempt for `account` from `address` may be checked now. */
  async check(account: string, address: string, now: number): Promise<ThrottleVerdict> {
    let wait = 0;
    for (const { key } of keysOf(account, address)) {
      const row = await this.db.get('SELECT blocked_until FROM sign_in_throttle WHERE key = ?', key);
      if (row) wait = Math.max(wait, readRow('sign_in_throttle', row).time('blocked_until') - now);
    }
    return wait > 0 ? { allowed: false, retryAfterMs: wait, retryAfterSeconds: Math.ceil(wait / 1000) } : { allowed: true };
  }

  /** Counts a failed attempt; resolves to the longest delay it set (0: none). */
  async recordFailure(account: string, address: string, now: number): Promise<number> {
    const at = storedTime(now);
    const forgotten = storedTime(now - this.policy.forgetAfterMs);
    let longest = 0;
    for (const { kind, key } of keysOf(account, address)) {
      // The count is incremented in one statement (two replicas never lose a failure), then the
      // delay is set from the count read back.
      const row = await this.db.get(
        `INSERT INTO sign_in_throttle (key, failures, last_failure_at, blocked_until) VALUES (?, 1, ?, ?)
         ON CONFLICT (key) DO UPDATE SET
           failures = CASE WHEN sign_in_throttle.last_failure_at < ? THEN 1 ELSE sign_in_throttle.failures + 1 END,
           last_failure_at = excluded.last_failure_at
         RETURNING failures`,
        key,
        at,
        at,
        forgotten,
      );
      const failures = row ? readRow('sign_in_throttle', row).int('failures') : 1;
      const delay = delayAfter(failures, this.policy[kind]);
      if (delay > 0) await this.db.run('UPDATE sign_in_throttle SET blocked_until = ? WHERE key = ? AND failures = ?', storedTime(now + delay), key, failures);
      longest = Math.max(longest, delay);
    }
    return longest;
  }

  /** A successful sign-in: the account's and the pair's counts start again (the address's stays). */
  async recordSuccess(account: string, address: string): Promise<void> {
    for (const { kind, key } of keysOf(account, address)) if (kind !== 'address') await this.db.run('DELETE FROM sign_in_throttle WHERE key = ?', key);
  }

  /** Deletes counts quiet for longer than the policy remembers; resolves to how many. */
  async purge(now: number): Promise<number> {
    const result = await this.db.run('DELETE FROM sign_in_throttle WHERE last_failure_at < ? AND blocked_until < ?', storedTime(now - this.policy.forgetAfterMs), storedTime(now));
    return result.changes;
  }
}
