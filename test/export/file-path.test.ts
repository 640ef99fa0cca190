import { describe, expect, it } from 'vitest';
import { exportFilePath } from '../../src/export/file-path.ts';

const html = 'text/html; charset=utf-8';

describe('exportFilePath', () => {
  it.each([
    ['/', html, 'index.html'],
    ['/acme/', html, 'acme/index.html'],
    ['/acme/incidents/inc_42/', html, 'acme/incidents/inc_42/index.html'],
    ['/acme/history/2026-10/', html, 'acme/history/2026-10/index.html'],
    // An HTML answer without an .html name is a folder too: the same static URL whichever way it was linked.
    ['/acme/widget', html, 'acme/widget/index.html'],
    ['/acme/incidents/inc.with.dots/', html, 'acme/incidents/inc.with.dots/index.html'],
    ['/404.html', html, '404.html'],
    ['/acme/history.atom', 'application/atom+xml', 'acme/history.atom'],
    ['/acme/api/v2/summary.json', 'application/json', 'acme/api/v2/summary.json'],
    ['/_astro/global.abc123.css', 'text/css', '_astro/global.abc123.css'],
    ['/acme/incidents/a%20b/', html, 'acme/incidents/a b/index.html'],
  ])('%s (%s) is %s', (urlPath, contentType, file) => {
    expect(exportFilePath(urlPath, contentType)).toBe(file);
  });

  it.each(['/acme/../etc/', '/acme/%2e%2e/x', '/acme/a%2Fb/', '/acme/a%5Cb', '/acme//x', '/acme/%00/', '/acme/%E0%A4%A/', 'acme/', '/acme/?month=2026-10', '/acme/#top'])(
    'refuses %s',
    (urlPath) => {
      expect(exportFilePath(urlPath, html)).toBeNull();
    },
  );
});
