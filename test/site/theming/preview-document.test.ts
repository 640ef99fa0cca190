import { describe, expect, it } from 'vitest';
import type { StatusPage } from '../../../src/contract/index.ts';
import { embedCustomCss } from '../../../src/site/lib/css.ts';
import { sha256Source } from '../../../src/site/security/csp.ts';
import { withDraft } from '../../../src/site/preview/draft.ts';
import { cardPreviewDocument, mailPreviewDocument, pagePreviewDocument, pinColorScheme } from '../../../src/site/preview/preview-document.ts';
import { previewRequestSchema } from '../../../src/site/preview/preview-request.ts';

const page: StatusPage = { id: 'p', name: 'Acme', slug: 'acme', monitors: [], brandColor: '#0a2540', logoUrl: null, headerText: '<p>Hi</p>', footerText: null, customCss: 'a{}' };

/** A page as the site renders it: its CSP meta, colour scheme, sheet, owner style and one script. */
function rendered(ownerCss: string): string {
  return `<!doctype html><html lang="en" data-theme="default"><head><meta charset="utf-8"><meta http-equiv="content-security-policy" content="default-src 'none'; script-src 'sha256-x'"><meta name="color-scheme" content="light dark"><title>Acme</title><style>@layer tokens{:root{--pl-surface-page:#f4f5f7}@media (prefers-color-scheme:dark){:root{--pl-surface-page:#0e1116}}}</style><style>${embedCustomCss(ownerCss)}</style></head><body><main><p>Status</p></main><script>document.title='refresh'</script></body></html>`;
}

describe('the preview document', () => {
  it('answers prefers-color-scheme for the scheme asked, in both directions', () => {
    const css = '@media (prefers-color-scheme: dark){a{color:red}}@media (prefers-color-scheme:light) and (min-width:40em){b{color:blue}}';
    expect(pinColorScheme(css, 'dark')).toBe('@media (min-width:0px){a{color:red}}@media (not (min-width:0px)) and (min-width:40em){b{color:blue}}');
    expect(pinColorScheme(css, 'light')).toBe('@media (not (min-width:0px)){a{color:red}}@media (min-width:0px) and (min-width:40em){b{color:blue}}');
    expect(pinColorScheme(css, 'high-contrast')).toBe(pinColorScheme(css, 'light'));
  });

  it('has no script, its own policy (every style by hash, no script, no connection) and the pinned colour scheme', () => {
    const { html, policy } = pagePreviewDocument(rendered(':root{--pl-radius:13px}'), 'dark');
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain('<meta name="color-scheme" content="dark">');
    expect(html).toContain('@media (min-width:0px){:root{--pl-surface-page:#0e1116}}');
    expect(html.match(/http-equiv="content-security-policy"/g)).toHaveLength(1);
    expect(policy.document).toContain("script-src 'none'");
    expect(policy.document).toContain("connect-src 'none'");
    expect(policy.document).toContain(sha256Source(':root{--pl-radius:13px}'));
    expect(policy.header).toMatch(/frame-ancestors 'self'; sandbox$/);
    expect(policy.document).not.toContain('sandbox');
  });

  it('keeps a </style><script> breakout in owner CSS inside its style element, and the rest of the document whole', () => {
    const { html, policy } = pagePreviewDocument(rendered(':root{--pl-radius:13px}</style><script>alert(1)</script><style>'), 'light');
    expect(html).toContain(':root{--pl-radius:13px}<\\/style><script>alert(1)<\\/script><style>');
    // The owner style is still the text the policy hashes, and the body is untouched but for the page's script.
    expect(policy.document).toContain(sha256Source(':root{--pl-radius:13px}<\\/style><script>alert(1)<\\/script><style>'));
    expect(html).toContain('<main><p>Status</p></main></body></html>');
    expect(html).not.toContain("document.title='refresh'");
  });

  it('wraps an e-mail (inline style attributes allowed, still no script) and the card image', () => {
    const mail = mailPreviewDocument('<!doctype html><html><head><meta charset="utf-8"></head><body style="margin:0"><p>Hi</p></body></html>');
    expect(mail.html).toMatch(/^<!doctype html><html><head><meta http-equiv="content-security-policy"/);
    expect(mail.policy.document).toContain("style-src-attr 'unsafe-inline'");
    expect(mail.policy.document).toContain("script-src 'none'");
    const card = cardPreviewDocument(new Uint8Array([137, 80, 78, 71]), { alt: 'Current status of "Acme"', lang: 'ar', dir: 'rtl', width: 1200, height: 630 });
    expect(card.html).toContain('<img src="data:image/png;base64,iVBORw==" alt="Current status of &quot;Acme&quot;" width="1200" height="630">');
    expect(card.html).toContain('dir="rtl"');
  });
});

describe('the draft over the live page', () => {
  it('replaces only what the draft sets, as publishing would store it', () => {
    expect(withDraft(page, { customCss: ':root{}' })).toEqual({ ...page, customCss: ':root{}' });
    expect(withDraft(page, { headerText: '', brandColor: null, logoUrl: ' https://acme.test/l.svg ' })).toEqual({ ...page, headerText: null, brandColor: '#000000', logoUrl: 'https://acme.test/l.svg' });
    expect(withDraft(page, {})).toEqual(page);
  });

  it('a preview request has defaults and bounds', () => {
    expect(previewRequestSchema.parse({ slug: 'acme', template: 'status' })).toEqual({ slug: 'acme', template: 'status', draft: {}, scheme: 'light', direction: 'ltr', width: 1280 });
    expect(previewRequestSchema.safeParse({ slug: 'acme', template: 'status', width: 800 }).success).toBe(false);
    expect(previewRequestSchema.safeParse({ slug: 'acme', template: 'status', draft: { customCss: 'x'.repeat(50_001) } }).success).toBe(false);
    expect(previewRequestSchema.safeParse({ slug: 'acme', template: 'admin' }).success).toBe(false);
  });
});
