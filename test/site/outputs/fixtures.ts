import type { Snapshot } from '../../../src/site/data/snapshot.ts';
import type { OutputSource } from '../../../src/site/view/output-route.ts';
import { pageContext } from '../../../src/site/view/page-context.ts';
import { publicUrls } from '../../../src/site/view/public-url.ts';
import { now, page, snapshot } from '../view/fixtures.ts';

/** An output source as a route gets it, for the page 'acme' of `data`, read from `origin`. */
export function outputFor(data: Snapshot = snapshot(), options: { origin?: string; basePath?: string; at?: Date } = {}): OutputSource {
  const basePath = options.basePath ?? '/acme';
  const statusPage = data.pages.find((candidate) => candidate.slug === 'acme') ?? page();
  return {
    context: pageContext(data, statusPage, { basePath, now: options.at ?? now, stale: false }),
    urls: publicUrls(options.origin ?? 'https://status.example.com', basePath),
    organization: data.organization,
    fetchedAt: data.fetchedAt,
  };
}
