/**
 * Client address ranges (CIDR), parsed once and matched with Node's own `net.BlockList`
 * (IPv4 and IPv6, an IPv4-mapped IPv6 address `::ffff:a.b.c.d` matched as its IPv4 address).
 */
import { BlockList, isIPv4, isIPv6 } from 'node:net';

export class CidrError extends Error {
  override name = 'CidrError';
}

export interface Cidr {
  address: string;
  prefix: number;
  family: 'ipv4' | 'ipv6';
}

/** `10.0.0.0/8`, `2001:db8::/32`, or a single address (a /32 or /128); throws CidrError otherwise. */
export function parseCidr(text: string): Cidr {
  const [address = '', prefixText, extra] = text.trim().split('/');
  if (extra !== undefined) throw new CidrError(`"${text}" is not an address range (a.b.c.d/n or x:y::/n)`);
  const family = isIPv4(address) ? 'ipv4' : isIPv6(address) ? 'ipv6' : null;
  if (family === null) throw new CidrError(`"${text}" is not an address range (a.b.c.d/n or x:y::/n)`);
  const max = family === 'ipv4' ? 32 : 128;
  const prefix = prefixText === undefined ? max : /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : NaN;
  if (!(prefix >= 0 && prefix <= max)) throw new CidrError(`"${text}": the prefix length must be 0 to ${max}`);
  return { address, prefix, family };
}

/** The address as BlockList reads it: an IPv4-mapped IPv6 address is its IPv4 address. */
export function plainAddress(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped?.[1] ?? address;
}

/** A set of ranges to test addresses against. */
export function addressMatcher(ranges: readonly string[]): (address: string) => boolean {
  const list = new BlockList();
  for (const range of ranges) {
    const cidr = parseCidr(range);
    list.addSubnet(cidr.address, cidr.prefix, cidr.family);
  }
  return (address) => {
    const plain = plainAddress(address);
    const family = isIPv4(plain) ? 'ipv4' : isIPv6(plain) ? 'ipv6' : null;
    return family !== null && list.check(plain, family);
  };
}
