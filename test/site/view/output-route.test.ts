import { describe, expect, it } from 'vitest';
import { outputPath, outputSlug } from '../../../src/site/view/output-route.ts';
import { page } from './fixtures.ts';

function request(options: { domain: boolean; params: Record<string, string | undefined>; path: string }) {
  const locals = { data: null, unavailable: null, domainPage: options.domain ? page() : null, cspStyles: [], frameAncestors: 'none' } satisfies App.Locals;
  return { locals, params: options.params, url: new URL(`http://host.test${options.path}`) };
}

const rest = (params: Record<string, string | undefined>) => `api/v2/${params.document ?? ''}`;

describe('output route parameters', () => {
  it('come from the route on the main host', () => {
    const main = request({ domain: false, params: { slug: 'acme', document: 'incidents/unresolved.json' }, path: '/acme/api/v2/incidents/unresolved.json' });
    expect(outputSlug(main)).toBe('acme');
    expect(outputPath(main, rest)).toBe('api/v2/incidents/unresolved.json');
  });

  // Astro gives an endpoint behind the middleware's rewrite the (empty) params of the original path.
  it('come from the domain and the request path on a custom domain, where Astro gives none', () => {
    const domain = request({ domain: true, params: {}, path: '/api/v2/summary.json' });
    expect(outputSlug(domain)).toBe('acme');
    expect(outputPath(domain, rest)).toBe('api/v2/summary.json');
  });

  it('ignore whatever params Astro gives on a custom domain: the domain and the path decide', () => {
    const stale = request({ domain: true, params: { slug: 'history.atom', document: 'status.json' }, path: '/api/v2/summary.json' });
    expect(outputSlug(stale)).toBe('acme');
    expect(outputPath(stale, rest)).toBe('api/v2/summary.json');
  });

  it('are missing on the main host without a slug', () => {
    const none = request({ domain: false, params: {}, path: '/api/v2/summary.json' });
    expect(outputSlug(none)).toBeUndefined();
    expect(outputPath(none, rest)).toBeNull();
  });
});
