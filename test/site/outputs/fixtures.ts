import type { Snapshot } from '../../../src/site/data/snapshot.ts';
import { buildOutputSource, type OutputSource } from '../../../src/site/view/output-route.ts';
import { now, page, snapshot } from '../view/fixtures.ts';

/** An output source as a route gets it, for the page 'acme' of `data`, read from `origin`. */
export function outputFor(data: Snapshot = snapshot(), options: { origin?: string; basePath?: string; at?: Date } = {}): OutputSource {
  const basePath = options.basePath ?? '/acme';
  const statusPage = data.pages.find((candidate) => candidate.slug === 'acme') ?? page();
  return buildOutputSource(data, statusPage, { basePath, now: options.at ?? now, stale: false, origin: options.origin ?? 'https://status.example.com' });
}
