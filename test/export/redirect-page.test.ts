import { describe, expect, it } from 'vitest';
import { redirectPage } from '../../src/export/redirect-page.ts';

describe('redirectPage', () => {
  it('sends the browser on at once, and names the address in a link for everyone else', () => {
    const html = redirectPage('/status/acme/');
    expect(html).toMatch(/^<!doctype html><html lang="en"><head><meta charset="utf-8">/);
    expect(html).toContain('<title>Status</title>');
    expect(html).toContain('<meta http-equiv="refresh" content="0; url=/status/acme/">');
    expect(html).toContain('<link rel="canonical" href="/status/acme/">');
    expect(html).toContain('<main><p><a href="/status/acme/">Go to the status page</a></p></main>');
  });

  it('keeps an odd address inside its attributes', () => {
    const html = redirectPage('/a"><script>x</script>&');
    expect(html).not.toContain('<script>');
    expect(html).toContain('url=/a&quot;&gt;&lt;script&gt;x&lt;/script&gt;&amp;"');
  });
});
