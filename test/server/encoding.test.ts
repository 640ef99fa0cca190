import { describe, expect, it } from 'vitest';
import { etagFor, matchesIfNoneMatch, negotiateCoding } from '../../src/server/front/encoding.ts';
import { cacheTarget, canonicalPath, checkHost, hostKey, validHost } from '../../src/server/front/request-key.ts';

describe('negotiateCoding', () => {
  it.each([
    [undefined, 'identity'],
    ['', 'identity'],
    ['gzip', 'gzip'],
    ['gzip, deflate, br', 'br'],
    ['br;q=0, gzip', 'gzip'],
    ['gzip;q=0', 'identity'],
    ['*', 'br'],
    ['*;q=0, gzip', 'gzip'],
    ['identity', 'identity'],
    [['gzip', 'br'], 'br'],
  ] as const)('%j -> %s', (header, expected) => {
    expect(negotiateCoding(header as string | string[] | undefined)).toBe(expected);
  });
});

describe('validators', () => {
  it('gives each coding its own strong ETag and matches any of them, weak or strong', () => {
    expect(etagFor('abc', 'identity')).toBe('"abc"');
    expect(etagFor('abc', 'gzip')).toBe('"abc-gzip"');
    expect(matchesIfNoneMatch('"abc-br"', 'abc')).toBe(true);
    expect(matchesIfNoneMatch('W/"abc"', 'abc')).toBe(true);
    expect(matchesIfNoneMatch('"other", "abc-gzip"', 'abc')).toBe(true);
    expect(matchesIfNoneMatch('*', 'abc')).toBe(true);
    expect(matchesIfNoneMatch('"abcd"', 'abc')).toBe(false);
    expect(matchesIfNoneMatch(undefined, 'abc')).toBe(false);
  });
});

describe('cache keys', () => {
  it.each([
    ['/acme', '/acme'],
    ['/acme?utm_source=news', '/acme'],
    ['/acme/history/2026-10/?x=1', '/acme/history/2026-10/'],
    ['/acme/history/?utm_source=a&utm_medium=b', '/acme/history/'],
  ])('%s is stored as %s', (url, expected) => {
    expect(canonicalPath(url)).toBe(expected);
  });

  it.each([
    ['Status.Example.com:8443', 'status.example.com:8443'],
    ['status.example.com.', 'status.example.com'],
    ['status.example.com.:80', 'status.example.com:80'],
    ['[::1]:4321', '[::1]:4321'],
    ['[::1]', '[::1]'],
    ['127.0.0.1:4321', '127.0.0.1:4321'],
  ])('host %j is keyed as %j', (host, expected) => {
    expect(hostKey(validHost(host)!)).toBe(expected);
  });

  it.each([
    'status.acme.test:80/history?',
    'x:1@evil.test',
    'evil.test/path',
    'a b',
    '',
    'status.acme.test:',
    `${'a'.repeat(300)}.test`,
  ])('refuses the Host %j', (host) => {
    expect(validHost(host)).toBeNull();
  });
});

describe('remembered cache targets', () => {
  it('give the same target for the same URL, and stay bounded whatever URLs clients send', () => {
    const host = checkHost('bounded.example.test')!;
    expect(cacheTarget('/acme?utm=1', host)).toBe(cacheTarget('/acme?utm=1', host));
    expect(cacheTarget('/acme?utm=1', host)?.key).toBe('bounded.example.test /acme');
    for (let index = 0; index < 10_000; index += 1) cacheTarget(`/acme?bust=${index}`, host);
    expect(host.targets.size).toBeLessThanOrEqual(4096);
    // Long URLs are answered but never remembered.
    const long = `/acme?${'x'.repeat(300)}`;
    expect(cacheTarget(long, host)?.path).toBe('/acme');
    expect(host.targets.has(long)).toBe(false);
  });
});
