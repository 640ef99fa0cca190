/**
 * The preview document around a template's ordinary output, for a sandboxed frame of the console:
 * the page's own bytes with three changes, each because a frame is not a visitor's tab:
 * - its colour scheme pinned: `prefers-color-scheme` in its style elements is answered for the
 *   scheme asked (the console's own preference must not pick the preview's colours);
 * - no script (the page's one script would be blocked here anyway, and a preview never refreshes);
 * - its own Content-Security-Policy: no script, no request but the page's images and fonts, no
 *   form, and, as a header, `sandbox` and framing by the console's own origin only.
 * Pure text work on markup the site rendered: outside style elements the site's HTML holds no
 * raw `<`-text (Astro escapes text and attributes; owner HTML is sanitized), and inside a style
 * element owner CSS can never hold `</` (lib/css.ts embedCustomCss), so the first `</style` ends it.
 */
import { sha256Source } from '../security/csp.ts';
import type { PreviewScheme } from './preview-request.ts';

const ALWAYS = '(min-width:0px)';
const NEVER = '(not (min-width:0px))';

/** `prefers-color-scheme` answered for `scheme` in a style sheet's text. */
export function pinColorScheme(css: string, scheme: PreviewScheme): string {
  const dark = scheme === 'dark';
  return css.replace(/\(\s*prefers-color-scheme\s*:\s*(dark|light)\s*\)/gi, (_match, wanted: string) => ((wanted.toLowerCase() === 'dark') === dark ? ALWAYS : NEVER));
}

export interface PreviewPolicy {
  /** For the document's <meta>. */
  document: string;
  /** For the response header: the same, plus sandbox and frame-ancestors. */
  header: string;
}

/** The preview's policy: the given inline styles only (by hash), images and fonts as the page loads them. */
export function previewPolicy(styleHashes: readonly string[], options: { styleAttributes?: boolean } = {}): PreviewPolicy {
  const directives = [
    "default-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "img-src 'self' https: http: data:",
    "font-src 'self' https:",
    `style-src ${styleHashes.length ? styleHashes.join(' ') : "'none'"}`,
    ...(options.styleAttributes ? ["style-src-attr 'unsafe-inline'"] : []),
    "script-src 'none'",
    "connect-src 'none'",
  ];
  const document = directives.join('; ');
  return { document, header: `${document}; frame-ancestors 'self'; sandbox` };
}

function escapeAttribute(value: string): string {
  return value.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

function metaPolicy(policy: PreviewPolicy): string {
  return `<meta http-equiv="content-security-policy" content="${escapeAttribute(policy.document)}">`;
}

const RAW_OPEN = /<(style|script)\b[^>]*>/gi;
const PAGE_POLICY = /<meta http-equiv="content-security-policy" content="[^"]*"\s*\/?>/i;
const COLOR_SCHEME = /<meta name="color-scheme" content="[^"]*"\s*\/?>/i;

export interface PreviewDocument {
  html: string;
  policy: PreviewPolicy;
}

/** A rendered page of the site as a preview document (see the top of this file). */
export function pagePreviewDocument(html: string, scheme: PreviewScheme): PreviewDocument {
  const parts: string[] = [];
  const hashes: string[] = [];
  const lower = html.toLowerCase();
  let at = 0;
  RAW_OPEN.lastIndex = 0;
  for (let open = RAW_OPEN.exec(html); open; open = RAW_OPEN.exec(html)) {
    const tag = (open[1] ?? '').toLowerCase();
    const contentStart = open.index + open[0].length;
    const close = lower.indexOf(`</${tag}`, contentStart);
    if (close < 0) break;
    const closeEnd = html.indexOf('>', close) + 1;
    parts.push(html.slice(at, open.index));
    if (tag === 'style') {
      const css = pinColorScheme(html.slice(contentStart, close), scheme);
      hashes.push(sha256Source(css));
      parts.push(`${open[0]}${css}</style>`);
    }
    at = closeEnd;
    RAW_OPEN.lastIndex = closeEnd;
  }
  parts.push(html.slice(at));
  const policy = previewPolicy(hashes);
  const colorScheme = scheme === 'dark' ? 'dark' : 'light';
  const out = parts
    .join('')
    .replace(PAGE_POLICY, metaPolicy(policy))
    .replace(COLOR_SCHEME, `<meta name="color-scheme" content="${colorScheme}">`);
  return { html: out, policy };
}

/** An e-mail's HTML (its inline `style` attributes are what mail clients need) as a preview document. */
export function mailPreviewDocument(html: string): PreviewDocument {
  const policy = previewPolicy([], { styleAttributes: true });
  return { html: html.replace(/<head>/i, `<head>${metaPolicy(policy)}`), policy };
}

/** The link-preview card (a PNG) in a document of its own, scaled to the frame. */
export function cardPreviewDocument(png: Uint8Array, options: { alt: string; lang: string; dir: 'ltr' | 'rtl'; width: number; height: number }): PreviewDocument {
  const css = 'html,body{margin:0;background:#fff}img{display:block;max-width:100%;height:auto}';
  const policy = previewPolicy([sha256Source(css)]);
  const src = `data:image/png;base64,${Buffer.from(png).toString('base64')}`;
  const html = `<!doctype html><html lang="${escapeAttribute(options.lang)}" dir="${options.dir}"><head><meta charset="utf-8">${metaPolicy(policy)}<meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeAttribute(options.alt)}</title><style>${css}</style></head><body><main><img src="${src}" alt="${escapeAttribute(options.alt)}" width="${options.width}" height="${options.height}"></main></body></html>`;
  return { html, policy };
}
