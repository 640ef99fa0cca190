import { describe, expect, it } from 'vitest';
import { blockedReason, embeddedIpv4, ipv6Groups } from '../../../src/service/egress/blocked-addresses.ts';

describe('blockedReason', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.1', 'private (RFC 1918)'],
    ['172.16.0.1', 'private (RFC 1918)'],
    ['172.31.255.255', 'private (RFC 1918)'],
    ['192.168.1.1', 'private (RFC 1918)'],
    ['100.64.0.1', 'shared carrier-grade NAT (RFC 6598)'],
    ['169.254.169.254', 'link-local (includes cloud metadata)'],
    ['0.0.0.0', 'unspecified ("this network")'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['255.255.255.255', 'reserved (includes broadcast)'],
    ['192.0.2.10', 'documentation'],
    ['198.18.0.1', 'benchmarking'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fc00::1', 'unique local (private)'],
    ['fd12:3456:789a::1', 'unique local (private)'],
    ['fe80::1', 'link-local'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'documentation'],
    ['[::1]', 'loopback'],
  ])('refuses %s (%s)', (address, reason) => {
    expect(blockedReason(address)).toBe(reason);
  });

  it.each([
    ['::ffff:127.0.0.1', 'loopback, IPv4 inside IPv6'],
    ['::ffff:7f00:1', 'loopback, IPv4 inside IPv6'],
    ['::ffff:169.254.169.254', 'link-local (includes cloud metadata), IPv4 inside IPv6'],
    ['::ffff:a00:1', 'private (RFC 1918), IPv4 inside IPv6'],
    ['::127.0.0.1', 'loopback, IPv4 inside IPv6'],
    ['64:ff9b::10.0.0.1', 'private (RFC 1918), IPv4 inside IPv6'],
    ['2002:c0a8:101::1', 'private (RFC 1918), IPv4 inside IPv6'],
  ])('refuses the IPv4 address inside %s', (address, reason) => {
    expect(blockedReason(address)).toBe(reason);
  });

  it('refuses scoped IPv6 addresses and anything that is not an address', () => {
    expect(blockedReason('fe80::1%eth0')).toBe('link-local (scoped)');
    expect(blockedReason('example.com')).toBe('not an IP address');
    expect(blockedReason('')).toBe('not an IP address');
  });

  it.each(['93.184.215.14', '8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '2a00:1450:4001:81b::200e', '::ffff:8.8.8.8', '64:ff9b::8.8.8.8'])(
    'allows the public address %s',
    (address) => {
      expect(blockedReason(address)).toBeNull();
    },
  );
});

describe('IPv6 helpers', () => {
  it('expands compressed forms and dotted tails to eight groups', () => {
    expect(ipv6Groups('::1')).toEqual([0, 0, 0, 0, 0, 0, 0, 1]);
    expect(ipv6Groups('fe80::1:2')).toEqual([0xfe80, 0, 0, 0, 0, 0, 1, 2]);
    expect(ipv6Groups('::ffff:1.2.3.4')).toEqual([0, 0, 0, 0, 0, 0xffff, 0x0102, 0x0304]);
    expect(ipv6Groups('1:2:3:4:5:6:7:8')).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(ipv6Groups('127.0.0.1')).toBeNull();
  });

  it('finds the IPv4 address carried by mapped, compatible, NAT64 and 6to4 addresses only', () => {
    expect(embeddedIpv4('::ffff:10.1.2.3')).toBe('10.1.2.3');
    expect(embeddedIpv4('64:ff9b::a01:203')).toBe('10.1.2.3');
    expect(embeddedIpv4('2002:a01:203::')).toBe('10.1.2.3');
    expect(embeddedIpv4('::1')).toBeNull();
    expect(embeddedIpv4('2606:4700::1')).toBeNull();
  });
});
