/**
 * Where subscription webhooks may connect. Anyone can type a URL into the subscribe form, so the
 * site must not become a way to reach what only it can reach: loopback, private networks,
 * link-local and cloud metadata addresses are refused, after DNS resolution, and the connection
 * then goes to the very addresses that were checked (a name that resolves differently a second
 * time, DNS rebinding, cannot switch it). Redirects are never followed, so no hop escapes the
 * check. SUBSCRIPTION_WEBHOOK_ALLOW_PRIVATE=true lifts the rule (tests, a closed network).
 *
 * The range list is the embedded API's (src/contract/blocked-addresses.ts, shared honestly through
 * the contract). The few lines of resolve-then-pin below mirror src/service/egress/ rather than
 * import it: the site may not import the service (the two meet only over HTTP).
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { Agent, buildConnector } from 'undici';
import { blockedReason } from '../contract/blocked-addresses.ts';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Every address a host name resolves to (like getaddrinfo); injected by tests. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = async (hostname) => {
  const found = await dnsLookup(hostname, { all: true, verbatim: true });
  return found.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));
};

export type EgressRefusal = 'refused' | 'unresolvable';

/** A connection the policy refused (or a name with no address): `reason` is what the form says. */
export class EndpointEgressError extends Error {
  readonly reason: EgressRefusal;
  constructor(reason: EgressRefusal, message: string) {
    super(message);
    this.name = 'EndpointEgressError';
    this.reason = reason;
  }
}

export interface EndpointEgressOptions {
  /** SUBSCRIPTION_WEBHOOK_ALLOW_PRIVATE: any address may be reached, and http:// is accepted. */
  allowPrivate: boolean;
  resolver?: Resolver;
}

const isLocalName = (host: string) => {
  const name = host.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost') || name === 'localhost.localdomain';
};

export class EndpointEgress {
  readonly allowPrivate: boolean;
  private readonly resolver: Resolver;

  constructor(options: EndpointEgressOptions) {
    this.allowPrivate = options.allowPrivate;
    this.resolver = options.resolver ?? systemResolver;
  }

  /**
   * The addresses a connection to `host` may use (all of them allowed: a name with one private
   * answer among public ones is refused, whichever record a later lookup would pick). Throws
   * EndpointEgressError. The address a name resolved to is never told.
   */
  async resolve(host: string): Promise<[ResolvedAddress, ...ResolvedAddress[]]> {
    const bare = host.replace(/^\[|\]$/g, '');
    const family = isIP(bare);
    if (!this.allowPrivate && isLocalName(bare)) throw new EndpointEgressError('refused', `${host} is this machine`);
    let addresses: ResolvedAddress[];
    try {
      addresses = family !== 0 ? [{ address: bare, family: family as 4 | 6 }] : await this.resolver(bare);
    } catch {
      throw new EndpointEgressError('unresolvable', `${host} does not resolve`);
    }
    if (addresses.length === 0) throw new EndpointEgressError('unresolvable', `${host} does not resolve`);
    if (!this.allowPrivate) {
      for (const { address } of addresses) {
        const reason = blockedReason(address);
        if (reason !== null) throw new EndpointEgressError('refused', `${host} is not a public address (${reason})`);
      }
    }
    return addresses as [ResolvedAddress, ...ResolvedAddress[]];
  }

  /**
   * An undici dispatcher whose every connection is checked, then pinned to the checked addresses
   * (no second DNS lookup; the name stays the TLS server name and Host header). Bounded
   * connections per origin; callers bound their requests per host too.
   */
  agent(options: { connectTimeoutMs: number; connectionsPerOrigin: number }): Agent {
    const connect: buildConnector.connector = (connectOptions, callback) => {
      this.resolve(connectOptions.hostname).then(
        (addresses) => buildConnector({ timeout: options.connectTimeoutMs, lookup: pinnedLookup(addresses) })(connectOptions, callback),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), null),
      );
    };
    return new Agent({ connect, connections: options.connectionsPerOrigin, keepAliveTimeout: 10_000 });
  }
}

type LookupCallback = (error: Error | null, address: string | { address: string; family: number }[], family?: number) => void;

/** A `lookup` for net/tls.connect answering with addresses already checked (Node's happy eyeballs still tries each). */
function pinnedLookup(addresses: readonly ResolvedAddress[]): (hostname: string, options: { all?: boolean; family?: number | string }, callback: LookupCallback) => void {
  return (_hostname, options, callback) => {
    const wanted = options.family === 4 || options.family === 6 ? addresses.filter((entry) => entry.family === options.family) : addresses;
    const usable = wanted.length > 0 ? wanted : addresses;
    if (options.all) callback(null, usable.map(({ address, family }) => ({ address, family })));
    else callback(null, usable[0]?.address ?? '', usable[0]?.family ?? 4);
  };
}
