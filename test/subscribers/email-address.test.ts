import { describe, expect, it } from 'vitest';
import { parseEmailAddress } from '../../src/subscribers/email-address.ts';

describe('parseEmailAddress', () => {
  it('accepts ordinary addresses, lower-casing the domain and keying the whole address', () => {
    expect(parseEmailAddress('  Alice.Smith+status@Example.COM ')).toEqual({ address: 'Alice.Smith+status@example.com', key: 'alice.smith+status@example.com' });
    expect(parseEmailAddress("o'brien@mail.example.co.uk")?.address).toBe("o'brien@mail.example.co.uk");
  });

  it('refuses anything that could add a header or a second recipient', () => {
    for (const hostile of [
      'alice@example.com\r\nBcc: victim@example.com',
      'alice@example.com\nBcc: victim@example.com',
      'alice@example.com, bob@example.com',
      'Alice <alice@example.com>',
      '"alice"@example.com',
      'alice@example.com;bob@example.com',
      'alice @example.com',
      'alice@exa mple.com',
    ]) {
      expect(parseEmailAddress(hostile), hostile).toBeNull();
    }
  });

  it('refuses unicode, overlong and malformed addresses', () => {
    for (const bad of [
      'ålice@example.com',
      'alice@exämple.com',
      'alice\u2028@example.com',
      `${'a'.repeat(65)}@example.com`,
      `alice@${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.com`,
      'a'.repeat(10_000),
      '',
      '@example.com',
      'alice@',
      'alice@localhost',
      'alice@127.0.0.1',
      'alice..smith@example.com',
      '.alice@example.com',
      'alice@-example.com',
      'alice@example..com',
    ]) {
      expect(parseEmailAddress(bad), bad).toBeNull();
    }
    expect(parseEmailAddress(undefined)).toBeNull();
    expect(parseEmailAddress(['alice@example.com'])).toBeNull();
  });
});
