import type { Rule } from '../../contract/monitor.ts';

/** What to check; built by the scheduler from a stored monitor. */
export interface CheckTarget {
  type: 'http' | 'tcp' | 'ping';
  url?: string | null;
  host?: string | null;
  port?: number | null;
  method?: string;
  headers?: Record<string, string>;
  body?: string | null;
  timeoutSeconds: number;
  rules: Rule[];
}

/**
 * The result of one check. latencyMs is always whole milliseconds:
 * - http: from the start of the check to the headers of the final response (redirects included);
 *   on a network error, the time until the check gave up;
 * - tcp: time to establish the connection (DNS lookup included);
 * - ping: the round trip reported by `ping`, or the TCP connect time of the fallback.
 */
export interface CheckOutcome {
  status: 'up' | 'down';
  latencyMs: number;
  statusCode: number | null;
  error: string | null;
}

export function elapsedMs(start: number): number {
  return Math.max(0, Math.round(performance.now() - start));
}
