import { describe, expect, it } from 'vitest';
import { claimsAllowed } from '../../src/site/private/oidc-claims.ts';

const settings = { issuer: 'https://id.example', clientId: 'c', clientSecret: 's', emailDomains: ['example.com'], claim: null };

describe('which OpenID Connect accounts a page lets in', () => {
  it('an address in one of its domains, unless the provider says it is unverified', () => {
    expect(claimsAllowed(settings, { sub: '1', email: 'Alice@Example.com', email_verified: true })).toEqual({ email: 'alice@example.com' });
    expect(claimsAllowed(settings, { sub: '1', email: 'alice@example.com', email_verified: false })).toBeNull();
    expect(claimsAllowed(settings, { sub: '1', email: 'alice@example.com.evil.test' })).toBeNull();
    expect(claimsAllowed(settings, { sub: '1', email: 'alice@sub.example.com' })).toBeNull();
    expect(claimsAllowed(settings, { sub: '1' })).toBeNull();
  });
  it('a required claim: its value, or an array holding it', () => {
    const byClaim = { ...settings, emailDomains: [], claim: { name: 'groups', value: 'status-readers' } };
    expect(claimsAllowed(byClaim, { sub: 'u1', groups: ['staff', 'status-readers'] })).toEqual({ email: 'u1' });
    expect(claimsAllowed(byClaim, { sub: 'u1', groups: 'status-readers' })).toEqual({ email: 'u1' });
    expect(claimsAllowed(byClaim, { sub: 'u1', groups: ['staff'] })).toBeNull();
    expect(claimsAllowed({ ...byClaim, emailDomains: ['example.com'] }, { sub: 'u1', email: 'a@example.com', groups: [] })).toBeNull();
  });
});
