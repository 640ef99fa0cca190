import { describe, expect, it } from 'vitest';
import { clearCookie, cookieMustBeSecure, readCookie, serializeCookie } from '../../src/auth/session-cookie.ts';
import { checkCsrfToken, checkRequestOrigin, csrfToken } from '../../src/auth/csrf.ts';
import { hashPassword, passwordProblem, verifyPassword } from '../../src/auth/password.ts';

const cheap = { N: 2 ** 10, r: 8, p: 1 };

describe('session cookie', () => {
  it('is HttpOnly, SameSite=Strict, Secure and __Host- over HTTPS', () => {
    expect(serializeCookie({ name: 'pl-console', secure: true, maxAgeSeconds: 43_200 }, 'abc')).toBe('__Host-pl-console=abc; Max-Age=43200; Path=/; HttpOnly; SameSite=Strict; Secure');
    expect(clearCookie({ name: 'pl-console', secure: true })).toBe('__Host-pl-console=; Max-Age=0; Path=/; HttpOnly; SameSite=Strict; Secure');
  });
  it('drops Secure and the prefix only where the browser could not keep them (loopback, plain HTTP)', () => {
    expect(serializeCookie({ name: 'pl-console', secure: false, path: '/_porchlight/' }, 'abc')).toBe('pl-console=abc; Path=/_porchlight/; HttpOnly; SameSite=Strict');
    expect(cookieMustBeSecure({ https: false, loopback: true })).toBe(false);
    expect(cookieMustBeSecure({ https: false, loopback: false })).toBe(true);
    expect(cookieMustBeSecure({ https: true, loopback: true })).toBe(true);
  });
  it('refuses values that would break the header, and reads a cookie sent once only', () => {
    expect(() => serializeCookie({ name: 'x', secure: true }, 'a;b')).toThrow();
    expect(readCookie('a=1; __Host-pl=tok; b=2', '__Host-pl')).toBe('tok');
    expect(readCookie('__Host-pl=one; __Host-pl=two', '__Host-pl')).toBeNull();
    expect(readCookie(undefined, 'x')).toBeNull();
  });
});

describe('CSRF', () => {
  it('accepts the session\'s own token only', () => {
    const token = csrfToken('session-secret-1');
    expect(checkCsrfToken('session-secret-1', token)).toBe(true);
    expect(checkCsrfToken('session-secret-2', token)).toBe(false);
    expect(checkCsrfToken('session-secret-1', token.slice(1))).toBe(false);
    expect(checkCsrfToken(null, token)).toBe(false);
    expect(checkCsrfToken('session-secret-1', undefined)).toBe(false);
    expect(csrfToken('s', 'sign-in')).not.toBe(csrfToken('s'));
  });
  it('refuses another origin or a cross-site fetch, and lets header-less clients through to the token', () => {
    const origin = 'https://status.example.com';
    expect(checkRequestOrigin({ origin, 'sec-fetch-site': 'same-origin' }, origin)).toEqual({ ok: true });
    expect(checkRequestOrigin({ origin: 'https://evil.example' }, origin)).toEqual({ ok: false, reason: 'wrong-origin' });
    expect(checkRequestOrigin({ 'sec-fetch-site': 'cross-site' }, origin)).toEqual({ ok: false, reason: 'cross-site' });
    expect(checkRequestOrigin({ 'sec-fetch-site': 'same-site', origin }, origin)).toEqual({ ok: false, reason: 'cross-site' });
    expect(checkRequestOrigin({}, origin)).toEqual({ ok: true });
  });
});

describe('passwords', () => {
  it('takes 12 to 256 characters, with no composition rules', () => {
    expect(passwordProblem('short pass!')).toBe('tooShort');
    expect(passwordProblem('correct horse')).toBeNull();
    expect(passwordProblem('aaaaaaaaaaaa')).toBeNull();
    expect(passwordProblem('😀'.repeat(12))).toBeNull();
    expect(passwordProblem('x'.repeat(257))).toBe('tooLong');
  });
  it('hashes with a fresh salt and verifies only the same password (NFC-normalized)', async () => {
    const one = await hashPassword('Crème brûlée 2026', cheap);
    const two = await hashPassword('Crème brûlée 2026', cheap);
    expect(one).toMatch(/^scrypt\$1024\$8\$1\$/);
    expect(one).not.toBe(two);
    expect(await verifyPassword('Crème brûlée 2026', one)).toBe(true);
    expect(await verifyPassword('Crème brûlée 2026'.normalize('NFD'), one)).toBe(true);
    expect(await verifyPassword('Creme brulee 2026', one)).toBe(false);
    expect(await verifyPassword('anything at all', null, cheap)).toBe(false);
    expect(await verifyPassword('anything at all', 'plain text', cheap)).toBe(false);
    await expect(hashPassword('too short', cheap)).rejects.toThrow(RangeError);
  });
});
