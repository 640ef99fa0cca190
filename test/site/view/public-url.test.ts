import { describe, expect, it } from 'vitest';
import { publicOrigin, publicUrls } from '../../../src/site/view/public-url.ts';

const requestUrl = new URL('http://127.0.0.1:4321/acme/history.atom');

describe('absolute addresses of a page', () => {
  it('use the request origin when no public URL is configured, on the main host and on a custom domain', () => {
    expect(publicOrigin({ requestUrl, customDomain: null, configured: null })).toBe('http://127.0.0.1:4321');
    const onDomain = new URL('http://status.acme.test:4321/history.atom');
    expect(publicOrigin({ requestUrl: onDomain, customDomain: 'status.acme.test', configured: null })).toBe('http://status.acme.test:4321');
  });

  it('use SITE_PUBLIC_URL on the main host, and its scheme with the bare domain on a custom domain', () => {
    expect(publicOrigin({ requestUrl, customDomain: null, configured: 'https://status.example.com' })).toBe('https://status.example.com');
    expect(publicOrigin({ requestUrl, customDomain: 'status.acme.test', configured: 'https://status.example.com:8443' })).toBe('https://status.acme.test');
  });

  it('build the home, permalinks and outputs under the slug on the main host and at the root of a domain', () => {
    const main = publicUrls('https://status.example.com', '/acme');
    expect(main.home).toBe('https://status.example.com/acme/');
    expect(main.incident('in c/1')).toBe('https://status.example.com/acme/incidents/in%20c%2F1/');
    expect(main.at('history.atom')).toBe('https://status.example.com/acme/history.atom');
    const domain = publicUrls('https://status.acme.test', '');
    expect(domain.home).toBe('https://status.acme.test/');
    expect(domain.incident('1')).toBe('https://status.acme.test/incidents/1/');
    expect(domain.at('api/v2/summary.json')).toBe('https://status.acme.test/api/v2/summary.json');
  });
});
