/**
 * The address a request comes from, for CIDR ranges and sign-in throttles: the connection's own
 * address. `X-Forwarded-For` counts only when that connection is one of the proxies the operator
 * named (TRUSTED_PROXIES): then the address is the rightmost entry that is not itself a trusted
 * proxy (entries further left were written by the client and prove nothing).
 */
import { isIP } from 'node:net';
import { addressMatcher, plainAddress } from './cidr.ts';

export type ClientAddressOf = (socketAddress: string | undefined, forwardedFor: string | string[] | undefined) => string;

export function clientAddressResolver(trustedProxies: readonly string[]): ClientAddressOf {
  const trusted = trustedProxies.length > 0 ? addressMatcher(trustedProxies) : null;
  return (socketAddress, forwardedFor) => {
    const own = plainAddress(socketAddress ?? '');
    if (trusted === null || !trusted(own) || forwardedFor === undefined) return own;
    const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor).split(',').map((hop) => plainAddress(hop.trim()));
    for (let index = hops.length - 1; index >= 0; index -= 1) {
      const hop = hops[index] ?? '';
      if (isIP(hop) === 0) return own;
      if (!trusted(hop)) return hop;
    }
    return own;
  };
}
