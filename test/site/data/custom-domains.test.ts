import { describe, expect, it } from 'vitest';
import { customDomainNames } from '../../../src/site/data/custom-domains.ts';
import { page } from '../view/fixtures.ts';

describe('custom domain names the front server is told', () => {
  it('are the public pages\' domains, lower-cased, without port or trailing dot; private pages and pages without one add none', () => {
    const pages = [
      page({ id: 'a', slug: 'a', customDomain: 'Status.Acme.TEST.' }),
      page({ id: 'b', slug: 'b', customDomain: 'secret.acme.test', isPublic: false }),
      page({ id: 'c', slug: 'c', customDomain: null }),
    ];
    expect(customDomainNames(pages)).toEqual(['status.acme.test']);
  });
});
