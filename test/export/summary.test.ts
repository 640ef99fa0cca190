import { describe, expect, it } from 'vitest';
import { summaryLine } from '../../src/export/summary.ts';

describe('summaryLine', () => {
  it('says pages, folder, files written, unchanged and removed, API requests and time on one line', () => {
    const line = summaryLine({
      pages: 1,
      domains: 1,
      outDir: '/srv/dist-status',
      result: { written: ['a', 'b'], unchanged: ['c'], removed: ['d'] },
      apiRequests: 7,
      milliseconds: 1234,
      stale: false,
    });
    expect(line).toBe('Exported 1 public page and 1 custom domain to /srv/dist-status: 3 files (2 written, 1 unchanged, 1 removed), 7 API requests, 1.2 s');
  });

  it('says when the pages show the last known state', () => {
    const line = summaryLine({ pages: 2, domains: 0, outDir: '/o', result: { written: [], unchanged: [], removed: [] }, apiRequests: 1, milliseconds: 0, stale: true });
    expect(line).toMatch(/^Exported 2 public pages to \/o: 0 files .*1 API request, 0\.0 s; the API is failing/);
    expect(line).not.toContain('\n');
  });

  it('says when the subscription form is left out of the pages', () => {
    const line = summaryLine({ pages: 1, domains: 0, outDir: '/o', result: { written: [], unchanged: [], removed: [] }, apiRequests: 1, milliseconds: 0, stale: false, subscribeFormLeftOut: true });
    expect(line).toMatch(/0\.0 s; the e-mail subscription form is left out \(set SITE_PUBLIC_URL to the server that takes subscriptions\)$/);
  });
});
