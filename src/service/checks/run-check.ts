import type { Dispatcher } from 'undici';
import type { CheckOutcome, CheckTarget } from './check-types.ts';
import { describeNetworkError } from './describe-network-error.ts';
import { httpCheck } from './http-check.ts';
import { pingCheck } from './ping-check.ts';
import { tcpCheck } from './tcp-check.ts';

export type { CheckOutcome, CheckTarget } from './check-types.ts';

function down(error: string): CheckOutcome {
  return { status: 'down', latencyMs: 0, statusCode: null, error };
}

async function dispatch(target: CheckTarget, options: { dispatcher?: Dispatcher; maxRedirects?: number }): Promise<CheckOutcome> {
  if (!(target.timeoutSeconds > 0)) return down('timeout must be a positive number of seconds');
  switch (target.type) {
    case 'http':
      if (!target.url) return down('http check needs a url');
      return httpCheck(
        {
          url: target.url,
          method: target.method ?? 'GET',
          headers: target.headers ?? {},
          body: target.body ?? null,
          timeoutSeconds: target.timeoutSeconds,
          rules: target.rules,
        },
        options,
      );
    case 'tcp':
      if (!target.host || target.port == null) return down('tcp check needs a host and a port');
      return tcpCheck(target.host, target.port, target.timeoutSeconds);
    case 'ping':
      if (!target.host) return down('ping check needs a host');
      return pingCheck(target.host, target.timeoutSeconds);
    default:
      return down('unknown check type');
  }
}

/**
 * Runs one check of a monitor. Never throws: every failure, including a bug in a check,
 * becomes status 'down' with a message that contains no request header values.
 */
export async function runCheck(
  target: CheckTarget,
  options: { dispatcher?: Dispatcher; maxRedirects?: number } = {},
): Promise<CheckOutcome> {
  try {
    return await dispatch(target, options);
  } catch (err) {
    return down(describeNetworkError(err, target.timeoutSeconds, Object.values(target.headers ?? {}).filter((v) => v.length >= 3)));
  }
}
