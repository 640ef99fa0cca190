/**
 * Which IP addresses a tenant's checks and webhooks, and the site's subscription webhooks, may not
 * reach: everything that is not a globally routable unicast address (IANA's special-purpose
 * registries, RFC 6890 and updates). Pure: no DNS, no sockets. It sits in src/contract because it
 * is policy both sides apply (the embedded API's egress and the subscriptions' webhooks), and
 * src/contract is the one module both may import: one list of refused ranges, not two copies.
 */
import { BlockList, isIPv4, isIPv6 } from 'node:net';

/** [network, prefix, what it is]: the name goes into the refusal message. */
const IPV4_RANGES: readonly (readonly [string, number, string])[] = [
  ['0.0.0.0', 8, 'unspecified ("this network")'],
  ['10.0.0.0', 8, 'private (RFC 1918)'],
  ['100.64.0.0', 10, 'shared carrier-grade NAT (RFC 6598)'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local (includes cloud metadata)'],
  ['172.16.0.0', 12, 'private (RFC 1918)'],
  ['192.0.0.0', 24, 'IETF protocol assignment'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.88.99.0', 24, '6to4 relay'],
  ['192.168.0.0', 16, 'private (RFC 1918)'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved (includes broadcast)'],
];

const IPV6_RANGES: readonly (readonly [string, number, string])[] = [
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['64:ff9b:1::', 48, 'local-use NAT64'],
  ['100::', 64, 'discard-only'],
  ['2001::', 23, 'IETF protocol assignment'],
  ['2001:db8::', 32, 'documentation'],
  ['3fff::', 20, 'documentation'],
  ['5f00::', 16, 'segment routing'],
  ['fc00::', 7, 'unique local (private)'],
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'site-local'],
  ['ff00::', 8, 'multicast'],
];

function listOf(ranges: readonly (readonly [string, number, string])[], family: 'ipv4' | 'ipv6'): { list: BlockList; name: string }[] {
  return ranges.map(([network, prefix, name]) => {
    const list = new BlockList();
    list.addSubnet(network, prefix, family);
    return { list, name };
  });
}

const V4 = listOf(IPV4_RANGES, 'ipv4');
const V6 = listOf(IPV6_RANGES, 'ipv6');

/** The eight 16-bit groups of an IPv6 address (with or without a dotted IPv4 tail), or null. */
export function ipv6Groups(address: string): number[] | null {
  const plain = address.replace(/%.*$/, '');
  if (!isIPv6(plain)) return null;
  let text = plain.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1]) {
    const [a, b, c, d] = dotted[1].split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, -dotted[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === undefined || tail === '' ? [] : tail.split(':');
  const zeros = tail === undefined ? 0 : 8 - headGroups.length - tailGroups.length;
  return [...headGroups, ...Array<string>(zeros).fill('0'), ...tailGroups].map((group) => Number.parseInt(group, 16));
}

function v4From(high: number, low: number): string {
  return `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
}

/**
 * The IPv4 address an IPv6 address carries and would reach it through: IPv4-mapped (::ffff:a.b.c.d),
 * IPv4-compatible (::a.b.c.d), NAT64 (64:ff9b::a.b.c.d) and 6to4 (2002:AABB:CCDD::). Null otherwise.
 */
export function embeddedIpv4(address: string): string | null {
  const g = ipv6Groups(address);
  if (!g) return null;
  const [g0, g1, g2, g3, g4, g5, g6, g7] = g as [number, number, number, number, number, number, number, number];
  const zeroTo = (end: number) => g.slice(0, end).every((group) => group === 0);
  if (zeroTo(5) && g5 === 0xffff) return v4From(g6, g7);
  if (zeroTo(6) && (g6 !== 0 || g7 > 1)) return v4From(g6, g7);
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return v4From(g6, g7);
  if (g0 === 0x2002) return v4From(g1, g2);
  return null;
}

/**
 * Why an IP address may not be a tenant's target ("loopback", "private (RFC 1918)" …), or null
 * when it is a public unicast address. Anything that is not an IP address is refused too.
 */
export function blockedReason(address: string): string | null {
  const plain = address.replace(/^\[|\]$/g, '');
  if (isIPv4(plain)) return V4.find((range) => range.list.check(plain, 'ipv4'))?.name ?? null;
  if (!isIPv6(plain.replace(/%.*$/, ''))) return 'not an IP address';
  if (plain.includes('%')) return 'link-local (scoped)';
  const inner = embeddedIpv4(plain);
  if (inner !== null) {
    const reason = blockedReason(inner);
    return reason === null ? null : `${reason}, IPv4 inside IPv6`;
  }
  return V6.find((range) => range.list.check(plain, 'ipv6'))?.name ?? null;
}
