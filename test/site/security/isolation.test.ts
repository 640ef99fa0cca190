import { describe, expect, it } from 'vitest';
import { securityHeaders } from '../../../src/site/security/csp.ts';
import { isolationHeaders } from '../../../src/site/security/isolation.ts';
import { ANSWER_HEADERS } from '../../../src/subscribers/answer-page.ts';

describe('isolation headers, per kind of route', () => {
  it('keep public pages and the widget in the opener’s browsing context group: no secret to protect, no swap to pay', () => {
    expect(securityHeaders('csp')).not.toHaveProperty('cross-origin-opener-policy');
    expect(securityHeaders('csp', 'any')).not.toHaveProperty('cross-origin-opener-policy');
    expect(isolationHeaders('public-page')).toEqual({});
  });

  it('isolate pages that hold a subscriber’s token or sit behind a sign-in', () => {
    expect(ANSWER_HEADERS['cross-origin-opener-policy']).toBe('same-origin');
    expect(isolationHeaders('private')).toEqual({ 'cross-origin-opener-policy': 'same-origin' });
    expect(securityHeaders('csp', 'none', 'private')['cross-origin-opener-policy']).toBe('same-origin');
  });

  it('never ask for cross-origin isolation (COEP), which would block owners’ logos from other hosts', () => {
    for (const headers of [securityHeaders('csp'), securityHeaders('csp', 'none', 'private'), ANSWER_HEADERS]) {
      expect(Object.keys(headers)).not.toContain('cross-origin-embedder-policy');
    }
  });
});
