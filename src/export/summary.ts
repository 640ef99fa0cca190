/** The one line each export prints. */
import type { WriteResult } from './writer.ts';

export interface PassSummary {
  pages: number;
  domains: number;
  outDir: string;
  result: WriteResult;
  apiRequests: number;
  milliseconds: number;
  /** The data is the last known state (the API is failing): the pages carry the stale notice. */
  stale: boolean;
  /** The server takes subscriptions but SITE_PUBLIC_URL is unset, so the pages have no form. */
  subscribeFormLeftOut?: boolean;
}

const plural = (count: number, word: string): string => `${count} ${word}${count === 1 ? '' : 's'}`;

/** e.g. `Exported 1 page and 1 custom domain to /srv/dist-status: 57 files (3 written, 54 unchanged, 0 removed), 7 API requests, 1.2 s` */
export function summaryLine(summary: PassSummary): string {
  const { written, unchanged, removed } = summary.result;
  const domains = summary.domains > 0 ? ` and ${plural(summary.domains, 'custom domain')}` : '';
  const files = written.length + unchanged.length;
  const seconds = (summary.milliseconds / 1000).toFixed(1);
  const stale = summary.stale ? '; the API is failing: pages show the last known state with the stale notice' : '';
  const form = summary.subscribeFormLeftOut ? '; the e-mail subscription form is left out (set SITE_PUBLIC_URL to the server that takes subscriptions)' : '';
  return `Exported ${plural(summary.pages, 'public page')}${domains} to ${summary.outDir}: ${plural(files, 'file')} (${written.length} written, ${unchanged.length} unchanged, ${removed.length} removed), ${plural(summary.apiRequests, 'API request')}, ${seconds} s${stale}${form}`;
}
