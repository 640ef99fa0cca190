import type { Dispatcher } from 'undici';
import { EgressPolicy, pinnedLookup } from '../egress/egress-policy.ts';
import { guardedAgent } from '../egress/guarded-agent.ts';
import type { CheckOutcome, CheckTarget } from './check-types.ts';
import { withDeadline } from './deadline.ts';
import { describeNetworkError, timeoutMessage } from './describe-network-error.ts';
import { httpCheck } from './http-check.ts';
import { pingCheck } from './ping-check.ts';
import { tcpCheck } from './tcp-check.ts';

export type { CheckOutcome, CheckTarget } from './check-types.ts';

export interface RunCheckOptions {
  /** Where checks may connect; default: public addresses only. */
  egress?: EgressPolicy;
  /** Replaces the policy's own dispatcher for HTTP checks (tests only: it bypasses the policy). */
  dispatcher?: Dispatcher;
  maxRedirects?: number;
}

const STRICT = new EgressPolicy({ allowPrivate: false });

/** One pool per policy: every HTTP check (each redirect hop) connects through the policy. */
const agents = new WeakMap<EgressPolicy, Dispatcher>();

function agentOf(policy: EgressPolicy): Dispatcher {
  let agent = agents.get(policy);
  if (!agent) {
    agent = guardedAgent(policy);
    agents.set(policy, agent);
  }
  return agent;
}

function down(error: string): CheckOutcome {
  return { status: 'down', latencyMs: 0, statusCode: null, error };
}

async function dispatch(target: CheckTarget, options: RunCheckOptions): Promise<CheckOutcome> {
  if (!(target.timeoutSeconds > 0)) return down('timeout must be a positive number of seconds');
  const egress = options.egress ?? STRICT;
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
        { dispatcher: options.dispatcher ?? agentOf(egress), maxRedirects: options.maxRedirects },
      );
    case 'tcp':
      if (!target.host || target.port == null) return down('tcp check needs a host and a port');
      return tcpCheck(target.host, target.port, target.timeoutSeconds, async (host, port) => {
        const addresses = await egress.resolveAll(host, port);
        // A literal is connected to as it was checked; a name only through the checked answers.
        return addresses.length === 1 ? { host: addresses[0].address } : { host, lookup: pinnedLookup(addresses) };
      });
    case 'ping': {
      if (!target.host) return down('ping check needs a host');
      // ping resolves names itself: it is handed the address the policy checked instead. A lookup
      // that hangs is bounded by the check's timeout too.
      const timeoutMs = target.timeoutSeconds * 1000;
      const resolved = await withDeadline(egress.resolve(target.host, null), timeoutMs, () => null);
      if (resolved === null) return { status: 'down', latencyMs: Math.round(timeoutMs), statusCode: null, error: timeoutMessage(target.timeoutSeconds) };
      return pingCheck(resolved.address, target.timeoutSeconds);
    }
    default:
      return down('unknown check type');
  }
}

/**
 * Runs one check of a monitor. Never throws: every failure, including a bug in a check or a target
 * the egress policy refuses, becomes status 'down' with a message that contains no request header values.
 */
export async function runCheck(target: CheckTarget, options: RunCheckOptions = {}): Promise<CheckOutcome> {
  try {
    return await dispatch(target, options);
  } catch (err) {
    return down(describeNetworkError(err, target.timeoutSeconds, Object.values(target.headers ?? {}).filter((v) => v.length >= 3)));
  }
}
