/**
 * Retry policy: network errors, timeouts, 429 and 5xx are retried for idempotent methods
 * only (a POST or PATCH may already have taken effect). Waits use capped exponential
 * backoff with equal jitter, or the server's Retry-After when it is reasonable; a longer
 * Retry-After is not waited out but thrown, so the caller can back off instead of hanging.
 */
import { ApiConnectionError, ApiStatusError } from './errors.ts';
import type { HttpMethod } from './transport.ts';

export interface RetryPolicy {
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited for. */
  maxRetryAfterMs: number;
  sleep: (ms: number) => Promise<void>;
  /** In [0, 1); injectable so tests can pin the jitter. */
  random: () => number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 2,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 30_000,
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  random: Math.random,
};

const IDEMPOTENT_METHODS: ReadonlySet<HttpMethod> = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);

export function isIdempotent(method: HttpMethod): boolean {
  return IDEMPOTENT_METHODS.has(method);
}

/** Backoff before retry number `retryIndex` (0-based): half fixed, half random, capped. */
export function backoffMs(retryIndex: number, policy: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs' | 'random'>): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retryIndex);
  return ceiling / 2 + policy.random() * (ceiling / 2);
}

function isRetryableError(error: unknown): error is ApiConnectionError | ApiStatusError {
  if (error instanceof ApiConnectionError) return true;
  return error instanceof ApiStatusError && (error.status === 429 || error.status >= 500);
}

/** How long to wait before retrying after `error`, or undefined to give up now. */
export function retryDelayMs(error: unknown, retryIndex: number, policy: RetryPolicy): number | undefined {
  if (retryIndex >= policy.maxRetries || !isRetryableError(error)) return undefined;
  if (error instanceof ApiStatusError && error.retryAfterSeconds !== undefined) {
    const requested = error.retryAfterSeconds * 1000;
    return requested <= policy.maxRetryAfterMs ? requested : undefined;
  }
  return backoffMs(retryIndex, policy);
}

export async function withRetries<T>(method: HttpMethod, attempt: () => Promise<T>, policy: RetryPolicy): Promise<T> {
  for (let retryIndex = 0; ; retryIndex += 1) {
    try {
      return await attempt();
    } catch (error) {
      const delay = isIdempotent(method) ? retryDelayMs(error, retryIndex, policy) : undefined;
      if (delay === undefined) throw error;
      await policy.sleep(delay);
    }
  }
}
