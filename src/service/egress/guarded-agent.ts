import { Agent, buildConnector } from 'undici';
import { pinnedLookup, portOf, type EgressPolicy } from './egress-policy.ts';

/**
 * An undici Agent whose every connection (each redirect hop included: each is a new connection)
 * first goes through the policy, then connects only to the addresses the policy checked (no second
 * DNS lookup). The host name stays the TLS server name and the Host header, so certificates are
 * verified against the name.
 */
export function guardedAgent(policy: EgressPolicy, options: Agent.Options & { connectTimeoutMs?: number } = {}): Agent {
  const { connectTimeoutMs, ...agentOptions } = options;
  const connect: buildConnector.connector = (connectOptions, callback) => {
    policy.resolveAll(connectOptions.hostname, portOf(connectOptions)).then(
      (addresses) => {
        // One connector per connection: its lookup answers with this connection's checked addresses.
        const pinned = buildConnector({ ...(connectTimeoutMs === undefined ? {} : { timeout: connectTimeoutMs }), lookup: pinnedLookup(addresses) });
        pinned(connectOptions, callback);
      },
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), null),
    );
  };
  return new Agent({ ...agentOptions, connect });
}
