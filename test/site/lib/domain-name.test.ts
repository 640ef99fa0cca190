import { describe, expect, it } from 'vitest';
import { normalizeDomainName } from '../../../src/site/lib/domain-name.ts';
import { normalizeHost } from '../../../src/site/view/routing.ts';

describe('normalizeDomainName', () => {
  it('gives one spelling per name: case, a trailing root dot, surrounding spaces', () => {
    for (const spelling of ['status.acme.test', 'STATUS.Acme.Test', 'status.acme.test.', ' status.acme.test ']) {
      expect(normalizeDomainName(spelling)).toBe('status.acme.test');
    }
  });

  it('turns Unicode names into their ASCII (punycode) form, as clients send them', () => {
    expect(normalizeDomainName('Bücher.Example')).toBe('xn--bcher-kva.example');
    expect(normalizeDomainName('xn--bcher-kva.example')).toBe('xn--bcher-kva.example');
    // The WHATWG URL parser, as a browser would spell it.
    expect(normalizeDomainName('Статус.Пример.рф')).toBe(new URL('http://статус.пример.рф/').hostname);
    expect(normalizeDomainName('Статус.Пример.рф')).toMatch(/^xn--[a-z0-9-]+\.xn--e1afmkfd\.xn--p1ai$/);
  });

  it('refuses what is not a plain name: ports, paths, queries, fragments, credentials, spaces', () => {
    for (const trick of [
      'status.acme.test:443',
      'status.acme.test/',
      'status.acme.test/../evil.test',
      'evil.test/status.acme.test',
      'evil.test?status.acme.test',
      'evil.test#status.acme.test',
      'status.acme.test@evil.test',
      'user:pass@status.acme.test',
      'status acme.test',
      'status.acme.test%2f',
      'status\\acme.test',
      '[::1]',
      'http://status.acme.test',
    ]) {
      expect(normalizeDomainName(trick), trick).toBeNull();
    }
  });

  it('refuses empty and malformed names', () => {
    for (const bad of ['', '   ', '.', '..', 'a..b', '-lead.test', 'trail-.test', `${'a'.repeat(64)}.test`, `${'abc.'.repeat(64)}test`, 'status.acme.test..']) {
      expect(normalizeDomainName(bad), bad).toBeNull();
    }
    expect(normalizeDomainName(null)).toBeNull();
    expect(normalizeDomainName(undefined)).toBeNull();
  });

  it('keeps the longest legal labels and names', () => {
    const label = 'a'.repeat(63);
    expect(normalizeDomainName(`${label}.test`)).toBe(`${label}.test`);
    const name = `${'abcdefghi.'.repeat(24)}abcdefgh.test`; // 253 characters
    expect(name).toHaveLength(253);
    expect(normalizeDomainName(name)).toBe(name);
    expect(normalizeDomainName(`x${name}`)).toBeNull();
  });
});

describe('normalizeHost and custom domains in Unicode', () => {
  it('matches a Unicode customDomain with the punycode Host browsers send', () => {
    expect(normalizeHost('Bücher.Example')).toBe(normalizeHost('xn--bcher-kva.example:443'));
  });
});
