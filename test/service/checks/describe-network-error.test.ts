import { describe, expect, it } from 'vitest';
import { CheckFailure } from '../../../src/service/checks/check-failure.ts';
import { describeNetworkError, redact } from '../../../src/service/checks/describe-network-error.ts';

const withCode = (code: string, message = 'raw message'): Error => Object.assign(new Error(message), { code });

describe('describeNetworkError', () => {
  it.each([
    ['ECONNREFUSED', 'connection refused'],
    ['ENOTFOUND', 'host not found'],
    ['ECONNRESET', 'connection reset by peer'],
    ['UND_ERR_SOCKET', 'connection closed by peer'],
    ['ETIMEDOUT', 'timed out after 5 s'],
    ['UND_ERR_CONNECT_TIMEOUT', 'timed out after 5 s'],
    ['UND_ERR_HEADERS_TIMEOUT', 'timed out after 5 s'],
    ['UND_ERR_BODY_TIMEOUT', 'timed out after 5 s'],
    ['CERT_HAS_EXPIRED', 'TLS certificate has expired'],
  ])('words %s as %j', (code, message) => {
    expect(describeNetworkError(withCode(code), 5)).toBe(message);
  });

  it('looks into causes and happy-eyeballs AggregateErrors', () => {
    expect(describeNetworkError(new Error('fetch failed', { cause: withCode('ECONNREFUSED') }), 5)).toBe('connection refused');
    expect(describeNetworkError(new AggregateError([withCode('EHOSTUNREACH')], 'all failed'), 5)).toBe('host unreachable');
  });

  it('keeps CheckFailure messages and reports DOM TimeoutErrors as timeouts', () => {
    expect(describeNetworkError(new CheckFailure('redirect loop detected after 2 redirects'), 5)).toBe(
      'redirect loop detected after 2 redirects',
    );
    expect(describeNetworkError(new DOMException('The operation timed out.', 'TimeoutError'), 3)).toBe('timed out after 3 s');
  });

  it('redacts secrets from unknown errors', () => {
    const err = withCode('SOMETHING_NEW', 'bad value Bearer abc.def for header');
    expect(describeNetworkError(err, 5, ['Bearer abc.def'])).toBe('check failed: bad value [redacted] for header');
    expect(describeNetworkError('plain string', 5)).toBe('check failed: plain string');
  });
});

describe('redact', () => {
  it('removes every occurrence and ignores empty secrets', () => {
    expect(redact('k=s3cret; again s3cret', ['s3cret', ''])).toBe('k=[redacted]; again [redacted]');
  });
});
