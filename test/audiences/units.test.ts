import { describe, expect, it } from 'vitest';
import { addressMatcher, CidrError, parseCidr } from '../../src/audiences/cidr.ts';
import { clientAddressResolver } from '../../src/audiences/client-address.ts';
import { invitationIdOf, invitationToken } from '../../src/audiences/tokens.ts';

describe('CIDR ranges', () => {
  it('match IPv4, IPv6 and IPv4-mapped addresses, and nothing else', () => {
    const inside = addressMatcher(['10.1.0.0/16', '2001:db8::/32', '192.0.2.7']);
    expect(inside('10.1.200.3')).toBe(true);
    expect(inside('::ffff:10.1.2.3')).toBe(true);
    expect(inside('10.2.0.1')).toBe(false);
    expect(inside('2001:db8:1::5')).toBe(true);
    expect(inside('2001:db9::1')).toBe(false);
    expect(inside('192.0.2.7')).toBe(true);
    expect(inside('192.0.2.8')).toBe(false);
    expect(inside('not an address')).toBe(false);
  });
  it('refuse what is not a range, naming it', () => {
    expect(() => parseCidr('10.0.0.0/33')).toThrow(CidrError);
    expect(() => parseCidr('example.com/8')).toThrow(/"example.com\/8" is not an address range/);
    expect(() => parseCidr('10.0.0.0/8/1')).toThrow(CidrError);
    expect(parseCidr('::1')).toEqual({ address: '::1', prefix: 128, family: 'ipv6' });
  });
});

describe('the client address', () => {
  it('is the connection\'s own address unless that connection is a trusted proxy', () => {
    const untrusting = clientAddressResolver([]);
    expect(untrusting('203.0.113.9', '10.1.2.3')).toBe('203.0.113.9');
    const behindProxy = clientAddressResolver(['127.0.0.1/32']);
    // From the proxy: the rightmost hop it did not add itself.
    expect(behindProxy('127.0.0.1', '10.9.9.9, 198.51.100.4')).toBe('198.51.100.4');
    expect(behindProxy('::ffff:127.0.0.1', '198.51.100.4, 127.0.0.1')).toBe('198.51.100.4');
    // Not from the proxy: the header proves nothing.
    expect(behindProxy('203.0.113.9', '10.1.2.3')).toBe('203.0.113.9');
    // Junk in the header: the proxy's own address, never the junk.
    expect(behindProxy('127.0.0.1', 'evil, nonsense')).toBe('127.0.0.1');
  });
});

describe('secrets', () => {
  it('an invitation token names its id only with the right key', () => {
    const token = invitationToken('key-1', 'inv_AAAAAAAAAAAAAAAA');
    expect(invitationIdOf('key-1', token)).toBe('inv_AAAAAAAAAAAAAAAA');
    expect(invitationIdOf('key-2', token)).toBeNull();
    expect(invitationIdOf('key-1', `${token}x`)).toBeNull();
  });
});
