import { describe, expect, it } from 'vitest';
import { CheckFailure } from '../../../src/service/checks/check-failure.ts';
import { nextRedirect, type HttpRequestPlan } from '../../../src/service/checks/http-redirect.ts';

const post: HttpRequestPlan = {
  url: new URL('https://status.example.com/api/health?x=1'),
  method: 'POST',
  headers: { Authorization: 'Bearer t0ken', Cookie: 'sid=1', 'Content-Type': 'application/json', 'X-Trace': 'abc' },
  body: '{"a":1}',
};

describe('nextRedirect', () => {
  it('returns null for final responses and 3xx without Location', () => {
    expect(nextRedirect(post, 200, undefined)).toBeNull();
    expect(nextRedirect(post, 200, '/elsewhere')).toBeNull();
    expect(nextRedirect(post, 304, '/elsewhere')).toBeNull();
    expect(nextRedirect(post, 302, undefined)).toBeNull();
    expect(nextRedirect(post, 302, '')).toBeNull();
  });

  it('resolves relative locations against the current URL', () => {
    expect(nextRedirect(post, 307, 'v2')?.url.href).toBe('https://status.example.com/api/v2');
    expect(nextRedirect(post, 307, ['/first', '/second'])?.url.href).toBe('https://status.example.com/first');
  });

  it('keeps method, body and headers on 307 and 308 within the origin', () => {
    for (const status of [307, 308]) {
      expect(nextRedirect(post, status, '/b')).toEqual({ ...post, url: new URL('https://status.example.com/b') });
    }
  });

  it('turns POST into a GET without body headers on 301, 302 and 303', () => {
    for (const status of [301, 302, 303]) {
      const next = nextRedirect(post, status, '/b');
      expect(next).toMatchObject({ method: 'GET', body: null });
      expect(next?.headers).toEqual({ Authorization: 'Bearer t0ken', Cookie: 'sid=1', 'X-Trace': 'abc' });
    }
  });

  it('keeps PUT on 301/302 but not on 303, and HEAD stays HEAD', () => {
    const put = { ...post, method: 'PUT' };
    expect(nextRedirect(put, 301, '/b')?.method).toBe('PUT');
    expect(nextRedirect(put, 302, '/b')?.method).toBe('PUT');
    expect(nextRedirect(put, 303, '/b')?.method).toBe('GET');
    expect(nextRedirect({ ...post, method: 'HEAD', body: null }, 303, '/b')?.method).toBe('HEAD');
  });

  it('strips credentials when the origin changes', () => {
    const next = nextRedirect(post, 308, 'https://other.example.com/b');
    expect(next?.headers).toEqual({ 'Content-Type': 'application/json', 'X-Trace': 'abc' });
    // A scheme change is an origin change too.
    expect(nextRedirect(post, 308, 'http://status.example.com/b')?.headers).not.toHaveProperty('Authorization');
  });

  it('rejects unsupported or invalid locations without echoing them', () => {
    expect(() => nextRedirect(post, 302, 'javascript:alert(1)')).toThrow(new CheckFailure('redirect (302) to unsupported protocol javascript:'));
    expect(() => nextRedirect(post, 302, 'http://[bad')).toThrow(new CheckFailure('redirect (302) to an invalid location'));
  });
});
