/**
 * What a receiver's answer means for a webhook or chat delivery. Pure, so the rules are tested
 * on their own:
 *   2xx                     delivered
 *   410 Gone                the receiver is gone: unsubscribe
 *   408, 429, 5xx, no answer (timeout, refused connection, reset)   retry with backoff, honouring
 *                           Retry-After, for up to a day from when the delivery was queued;
 *                           then the subscriber is paused
 *   3xx                     a failure (redirects are not followed: no hop may escape the egress
 *                           check); retried like a 5xx
 *   other 4xx               given up, not retried
 *   refused by the egress policy  given up (the address will not become public by waiting)
 */
export type Answer = { status: number; retryAfter: string | null } | { error: 'timeout' | 'connection' | 'refused' };

export type Decision =
  | { action: 'delivered' }
  | { action: 'gone' }
  | { action: 'give-up' }
  | { action: 'retry'; at: number }
  | { action: 'pause' };

export interface RetryRules {
  /** First retry delay; doubles per attempt. */
  baseMs: number;
  maxMs: number;
  /** How long after queuing a delivery is retried before the subscriber is paused. */
  giveUpAfterMs: number;
}

export const DEFAULT_RETRY_RULES: RetryRules = { baseMs: 10_000, maxMs: 60 * 60_000, giveUpAfterMs: 24 * 3_600_000 };

/** Retry-After as delay-seconds or an HTTP date; null when absent or unreadable. */
export function retryAfterMs(value: string | null, now: number): number | null {
  if (value === null) return null;
  const text = value.trim();
  if (/^\d{1,10}$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

export function decide(answer: Answer, attempts: number, queuedAt: number, now: number, rules: RetryRules = DEFAULT_RETRY_RULES): Decision {
  if ('status' in answer) {
    if (answer.status >= 200 && answer.status < 300) return { action: 'delivered' };
    if (answer.status === 410) return { action: 'gone' };
    const retryable = answer.status >= 500 || answer.status === 408 || answer.status === 429 || (answer.status >= 300 && answer.status < 400);
    if (!retryable) return { action: 'give-up' };
  } else if (answer.error === 'refused') {
    return { action: 'give-up' };
  }
  const backoff = Math.min(rules.maxMs, rules.baseMs * 2 ** Math.max(0, attempts - 1));
  const asked = 'status' in answer ? retryAfterMs(answer.retryAfter, now) : null;
  const at = now + Math.max(backoff, asked ?? 0);
  return at - queuedAt > rules.giveUpAfterMs ? { action: 'pause' } : { action: 'retry', at };
}
