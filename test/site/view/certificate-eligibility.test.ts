import { describe, expect, it } from 'vitest';
import type { StatusPage } from '../../../src/contract/index.ts';
import { customDomainNames } from '../../../src/site/data/custom-domains.ts';
import { allowedNames, decideName, explainName } from '../../../src/site/view/certificate-eligibility.ts';

const page = (slug: string, customDomain: string | null, isPublic = true) => ({ id: slug, name: slug, slug, customDomain, isPublic }) as StatusPage;
const pages = [page('acme', 'status.acme.test'), page('shop', 'Bücher.Example'), page('secret', 'secret.acme.test', false), page('plain', null)];

describe('explainName', () => {
  it('says which page a name belongs to, or why it gets no certificate', () => {
    expect(explainName('STATUS.acme.test.', pages, null)).toEqual({ allowed: true, because: 'custom-domain', slug: 'acme' });
    expect(explainName('xn--bcher-kva.example', pages, null)).toEqual({ allowed: true, because: 'custom-domain', slug: 'shop' });
    expect(explainName('status.example.test', pages, 'status.example.test')).toEqual({ allowed: true, because: 'main-host' });
    expect(explainName('secret.acme.test', pages, null)).toEqual({ allowed: false, because: 'page-not-public', slug: 'secret' });
    expect(explainName('nobody.test', pages, null)).toEqual({ allowed: false, because: 'no-page-claims-it' });
    expect(explainName('status.acme.test:443', pages, null)).toEqual({ allowed: false, because: 'not-a-domain-name' });
  });

  it('agrees with the gate, which knows only the announced names', () => {
    const announced = allowedNames(customDomainNames(pages));
    for (const name of ['status.acme.test', 'Status.Acme.Test.', 'bücher.example', 'secret.acme.test', 'nobody.test', 'status.example.test', '', 'a/b']) {
      for (const publicHost of [null, 'status.example.test']) {
        expect(explainName(name, pages, publicHost).allowed, `${name} / ${publicHost}`).toBe(decideName(name, announced, publicHost) === 'allowed');
      }
    }
  });
});
