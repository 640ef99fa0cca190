/**
 * Where one organization's checks and webhooks may connect. The embedded API is multi-tenant: a
 * check whose target is the host's loopback, a private network or the cloud metadata address turns
 * a `contains` body rule into a yes/no oracle on anything the server can read, and a TCP check into
 * a port scanner. So such targets are refused when a monitor or channel is saved (`refusal`), and
 * again when the connection is made, after DNS resolution (`resolve`): the connection then goes to
 * the very address that was checked, so a name that resolves differently a second time (DNS
 * rebinding) cannot switch it. ALLOW_PRIVATE_TARGETS lifts the rule for single-organization use.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { CheckFailure } from '../checks/check-failure.ts';
import { blockedReason } from './blocked-addresses.ts';

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

/** A connection the policy refused; its message is what the check or delivery reports. */
export class EgressRefusedError extends CheckFailure {
  readonly code = 'EGRESS_REFUSED';
}

export interface EgressOptions {
  /** ALLOW_PRIVATE_TARGETS: every address may be reached. */
  allowPrivate: boolean;
  resolver?: Resolver;
}

/** Host names that always mean this machine (RFC 6761), refused without asking DNS. */
function isLocalName(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost') || name === 'localhost.localdomain';
}

/** The host as WHATWG URL parsing normalises it (0x7f.1 and 2130706433 are 127.0.0.1), without brackets. */
function canonicalHost(host: string): string {
  const bare = host.trim().replace(/^\[|\]$/g, '');
  const asUrlHost = isIP(bare) === 6 ? `[${bare}]` : bare;
  try {
    return new URL(`http://${asUrlHost}/`).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return bare;
  }
}

const hint = 'targets must be public addresses (set ALLOW_PRIVATE_TARGETS=true on a single-organization deployment)';

/** The port a URL (or undici's connect options) connects to, its scheme's default included. */
export function portOf(url: { port: string | number; protocol: string }): number {
  return Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
}

function hostPort(host: string, port: number): string {
  return `${canonicalHost(host).toLowerCase()}|${port}`;
}

export class EgressPolicy {
  readonly allowPrivate: boolean;
  private readonly resolver: Resolver;
  /** host|port pairs always allowed: the launcher's own site, which its push channel posts to. */
  private readonly trusted = new Set<string>();

  constructor(options: EgressOptions) {
    this.allowPrivate = options.allowPrivate;
    this.resolver = options.resolver ?? systemResolver;
  }

  /** Allows one host and port whatever the policy (the site this service was started for). */
  trust(host: string, port: number): void {
    this.trusted.add(hostPort(host, port));
  }

  /** Allows the origin of a URL (its host and port, default ports included). */
  trustOrigin(url: string): void {
    if (!URL.canParse(url)) return;
    const parsed = new URL(url);
    this.trust(parsed.hostname, portOf(parsed));
  }

  /** `port` null: no port (ping); only a trusted host and port is ever exempt. */
  private isTrusted(host: string, port: number | null): boolean {
    return port !== null && this.trusted.has(hostPort(host, port));
  }

  /**
   * When a monitor or channel is saved: why this host may not be a target, or null. Only what is
   * known without DNS is judged here (IP literals, `localhost`); names are judged when connecting.
   * `port` null: any port (ping).
   */
  refusal(host: string, port: number | null): string | null {
    if (this.allowPrivate || this.isTrusted(host, port)) return null;
    if (isLocalName(host)) return `${host} is this machine (loopback); ${hint}`;
    const canonical = canonicalHost(host);
    if (isIP(canonical) === 0) return null;
    const reason = blockedReason(canonical);
    return reason === null ? null : `${canonical} is not a public address (${reason}); ${hint}`;
  }

  /** Like `refusal`, for an http(s) URL. */
  urlRefusal(url: string): string | null {
    if (!URL.canParse(url)) return null;
    const parsed = new URL(url);
    return this.refusal(parsed.hostname, portOf(parsed));
  }

  /**
   * When connecting: the addresses to connect to (at least one, in the resolver's order). Every
   * address the name resolves to must be allowed (a name with one private answer among public ones
   * is refused), so the answer cannot depend on which record a later lookup picks. Throws
   * EgressRefusedError, or the resolver's error.
   */
  async resolveAll(host: string, port: number | null): Promise<[ResolvedAddress, ...ResolvedAddress[]]> {
    const canonical = canonicalHost(host);
    const family = isIP(canonical);
    const open = this.allowPrivate || this.isTrusted(host, port);
    if (!open && isLocalName(canonical)) throw new EgressRefusedError(`refused: ${host} is this machine (loopback); ${hint}`);
    const addresses = family !== 0 ? [{ address: canonical, family: family as 4 | 6 }] : await this.resolver(canonical);
    if (addresses.length === 0) throw Object.assign(new Error(`no address for ${host}`), { code: 'ENOTFOUND' });
    if (!open) {
      for (const { address } of addresses) {
        const reason = blockedReason(address);
        if (reason !== null) {
          // The address a name resolved to is not told: it would map another's internal DNS.
          const shown = family !== 0 ? `${address} is not a public address` : `${host} resolves to an address that is not public`;
          throw new EgressRefusedError(`refused: ${shown} (${reason}); ${hint}`);
        }
      }
    }
    return addresses as [ResolvedAddress, ...ResolvedAddress[]];
  }

  /** The first address of `resolveAll`, for a client that connects to one address (ping). */
  async resolve(host: string, port: number | null): Promise<ResolvedAddress> {
    return (await this.resolveAll(host, port))[0];
  }
}

type LookupCallback = (error: Error | null, address: string | { address: string; family: number }[], family?: number) => void;

/**
 * A `lookup` for net/tls.connect that answers with addresses already checked, instead of asking
 * DNS again: the connection can only go to them, and Node's happy eyeballs (`autoSelectFamily`)
 * still tries each of them in turn (an IPv6 answer on an IPv4-only host does not fail the check).
 */
export function pinnedLookup(addresses: readonly ResolvedAddress[]): (hostname: string, options: { all?: boolean; family?: number | string }, callback: LookupCallback) => void {
  return (_hostname, options, callback) => {
    const wanted = options.family === 4 || options.family === 6 ? addresses.filter((entry) => entry.family === options.family) : addresses;
    const usable = wanted.length > 0 ? wanted : addresses;
    if (options.all) callback(null, usable.map(({ address, family }) => ({ address, family })));
    else callback(null, usable[0]?.address ?? '', usable[0]?.family ?? 4);
  };
}
