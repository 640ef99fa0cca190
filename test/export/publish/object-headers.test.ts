import { describe, expect, it } from 'vitest';
import { headersFingerprint, objectHeaders } from '../../../src/export/publish/object-headers.ts';

describe('objectHeaders', () => {
  it('takes type, language and caching from the site answer and nothing else', () => {
    const headers = objectHeaders({
      headers: {
        'content-type': 'text/html; charset=utf-8',
        'content-language': 'ar',
        'cache-control': 'public, max-age=30, must-revalidate',
        'content-security-policy': "default-src 'none'",
        'x-porchlight-data-version': '17',
      },
    }, 86_400);
    // The server's must-revalidate becomes a bucket's stale-while-revalidate and stale-if-error.
    expect(headers).toEqual({ contentType: 'text/html; charset=utf-8', contentLanguage: 'ar', cacheControl: 'public, max-age=30, stale-while-revalidate=60, stale-if-error=86400' });
  });

  it('turns a redirect into a website redirect on the object', () => {
    expect(objectHeaders({ headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }, redirect: '/status/acme/' }, 86_400)).toEqual({
      contentType: 'text/html; charset=utf-8',
      cacheControl: 'no-store',
      redirect: '/status/acme/',
    });
  });

  it('names a neutral type when the site named none', () => {
    expect(objectHeaders(undefined, 86_400)).toEqual({ contentType: 'application/octet-stream' });
  });

  it('keeps every other caching as the server sends it, and uses the configured stale-if-error', () => {
    const immutable = 'public, max-age=31536000, immutable';
    expect(objectHeaders({ headers: { 'content-type': 'image/png', 'cache-control': immutable } }, 60).cacheControl).toBe(immutable);
    expect(objectHeaders({ headers: { 'content-type': 'text/html', 'cache-control': 'public, max-age=5, must-revalidate' } }, 600).cacheControl).toBe(
      'public, max-age=5, stale-while-revalidate=10, stale-if-error=600',
    );
  });

  it('fingerprints every header, so a changed cache lifetime is a changed object', () => {
    const base = { contentType: 'text/html', cacheControl: 'public, max-age=30' };
    expect(headersFingerprint(base)).toBe(headersFingerprint({ ...base }));
    expect(headersFingerprint(base)).not.toBe(headersFingerprint({ ...base, cacheControl: 'public, max-age=60' }));
    expect(headersFingerprint(base)).not.toBe(headersFingerprint({ ...base, contentLanguage: 'en' }));
    expect(headersFingerprint(base)).not.toBe(headersFingerprint({ ...base, redirect: '/a/' }));
  });
});
