import { Agent, buildConnector } from 'undici';
import type { EgressPolicy } from './egress-policy.ts';

/**
 * An undici Agent whose every connection (each redirect hop included: each is a new connection)
 * first goes through the policy, then connects to the address the policy checked. The host name
 * stays the TLS server name and the Host header, so certificates are verified against the name.
 */
export function guardedAgent(policy: EgressPolicy, options: Agent.Options & { connectTimeoutMs?: number } = {}): Agent {
  const { connectTimeoutMs, ...agentOptions } = options;
  const base = buildConnector(connectTimeoutMs === undefined ? {} : { timeout: connectTimeoutMs });
  const connect: buildConnector.connector = (connectOptions, callback) => {
    const port = Number(connectOptions.port) || (connectOptions.protocol === 'https:' ? 443 : 80);
    policy.resolve(connectOptions.hostname, port).then(
      ({ address }) => base({ ...connectOptions, hostname: address }, callback),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), null),
    );
  };
  return new Agent({ ...agentOptions, connect });
}
