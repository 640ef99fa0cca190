/**
 * Owner-supplied theme values, checked before they reach a <style> element or an attribute.
 * Only validated values are ever interpolated; everything else is rejected (null) or neutralized.
 */

const HEX_COLOR = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

/** The page's brand color when the owner set none or an invalid one (the API's default). */
export const DEFAULT_BRAND_COLOR = '#000000';

/** '#rgb' or '#rrggbb', lower-cased; null for anything else (named colors, rgb(), url(), ...). */
export function safeBrandColor(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const color = value.trim();
  return HEX_COLOR.test(color) ? color.toLowerCase() : null;
}

/** [r, g, b] in 0..255 of a color safeBrandColor accepted. */
function channels(hex: string): [number, number, number] {
  const digits = hex.slice(1);
  const full = digits.length === 3 ? [...digits].map((digit) => digit + digit).join('') : digits;
  return [0, 2, 4].map((at) => Number.parseInt(full.slice(at, at + 2), 16)) as [number, number, number];
}

/** WCAG 2 relative luminance, 0 (black) to 1 (white); null for an invalid color. */
export function relativeLuminance(value: unknown): number | null {
  const hex = safeBrandColor(value);
  if (hex === null) return null;
  const [r, g, b] = channels(hex).map((channel) => {
    const c = channel / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG 2 contrast ratio (1..21) between two luminances. */
export function contrastRatio(luminanceA: number, luminanceB: number): number {
  const [light, dark] = luminanceA >= luminanceB ? [luminanceA, luminanceB] : [luminanceB, luminanceA];
  return (light + 0.05) / (dark + 0.05);
}

/** Black or white, whichever contrasts more with the (valid or default) brand color. */
export function readableTextColor(brandColor: unknown): '#000000' | '#ffffff' {
  const luminance = relativeLuminance(brandColor) ?? 0;
  return contrastRatio(luminance, 1) >= contrastRatio(luminance, 0) ? '#ffffff' : '#000000';
}

/**
 * CSS declarations for the brand color and a readable text color on it, e.g.
 * "--pl-brand: #1a7f37; --pl-on-brand: #ffffff;". Invalid input falls back to the default color.
 */
export function brandColorVariables(value: unknown): string {
  const brand = safeBrandColor(value) ?? DEFAULT_BRAND_COLOR;
  return `--pl-brand: ${brand}; --pl-on-brand: ${readableTextColor(brand)};`;
}

/**
 * Owner CSS made safe as the text of a <style> element, and already in the form a browser's HTML
 * parser hands to the CSP check, so the hash of this text (the CSP's) is the hash of what the
 * browser sees, for any input. The parser turns CRLF and lone CR into LF and NUL into U+FFFD, and
 * the page is sent as UTF-8, where a lone surrogate becomes U+FFFD: all done here, once. The
 * element's raw text ends at the first `</style` (any case), so every `</` becomes `<\/`: in CSS
 * a backslash before `/` still means `/`, so strings and selectors keep their meaning. Comment-like
 * `<!--` and `-->` are escaped the same way, and NUL is removed. It does not make the CSS itself
 * harmless (it may still load fonts or images): that is the page's Content-Security-Policy's job.
 */
export function embedCustomCss(css: string | null | undefined): string {
  if (typeof css !== 'string') return '';
  return css
    .toWellFormed()
    .replaceAll('\u0000', '')
    .replace(/\r\n?/g, '\n')
    .replaceAll('</', '<\\/')
    .replaceAll('<!--', '<\\!--')
    .replaceAll('-->', '--\\>');
}

const HTTP_PREFIX = /^https?:\/\//i;
const MAX_URL_LENGTH = 2048;

/**
 * An absolute http(s) URL, normalized (URL#href), for a logo or link; null for anything else:
 * other schemes (javascript:, data:), protocol-relative or relative URLs, credentials
 * (user:pass@), no host, over-long values.
 */
export function safeHttpUrl(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const text = value.trim();
  // The prefix test rejects "//host", "http:host" and "https:\\host", which URL would accept.
  if (text.length > MAX_URL_LENGTH || !HTTP_PREFIX.test(text)) return null;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.username !== '' || url.password !== '' || url.hostname === '') return null;
  return url.href.length > MAX_URL_LENGTH ? null : url.href;
}

/** One path segment of a site path: plain file-name characters, never `.` or `..` alone. */
const SITE_PATH = /^(?:\/(?!\.{1,2}(?:\/|$))[A-Za-z0-9._~-]+)+$/;

/**
 * A logo address: an absolute http(s) URL (safeHttpUrl), or a path on the site itself such as
 * `/demo/acme-logo.svg` (a file the site serves from public/, e.g. the demo's logo), kept as the
 * path so it loads from whatever host name the visitor used; the layout puts it under the site's
 * base path. Paths are plain: no `//`, `..`, query, fragment, backslash or escapes. Null otherwise.
 */
export function safeLogoUrl(value: unknown): string | null {
  if (typeof value === 'string' && value.length <= MAX_URL_LENGTH && SITE_PATH.test(value)) return value;
  return safeHttpUrl(value);
}

/**
 * What happens to a part of the owner's CSS: `escaped` by embedCustomCss (it can never close its
 * element or open a comment), or `inert`: kept, but the page's Content-Security-Policy or every
 * current browser gives it no effect (imports of other sheets, script addresses, IE expressions).
 */
export type CssFindingReason = 'closing-tag' | 'comment-mark' | 'nul' | 'import' | 'script-url' | 'blocked-url' | 'expression' | 'binding';

export interface CssFinding {
  effect: 'escaped' | 'inert';
  reason: CssFindingReason;
  /** 1-based line of the owner's text. */
  line: number;
  /** The text found, at most 80 characters. */
  excerpt: string;
}

const MAX_FINDINGS = 100;

/** Schemes a `url()` of the page's CSS may load (img-src and font-src of security/csp.ts). */
const LOADABLE_SCHEMES = new Set(['http', 'https', 'data']);

/** Patterns in CSS text (comments blanked first), in the order a report lists them. */
const CSS_PATTERNS: readonly { pattern: RegExp; effect: CssFinding['effect']; reason: (match: RegExpExecArray) => CssFindingReason | null }[] = [
  { pattern: /<\//g, effect: 'escaped', reason: () => 'closing-tag' },
  { pattern: /<!--|-->/g, effect: 'escaped', reason: () => 'comment-mark' },
  { pattern: /\u0000/g, effect: 'escaped', reason: () => 'nul' },
  { pattern: /@import\b/gi, effect: 'inert', reason: () => 'import' },
  {
    pattern: /url\(\s*['"]?\s*([a-z][a-z0-9+.-]*):/gi,
    effect: 'inert',
    reason: (match) => {
      const scheme = (match[1] ?? '').toLowerCase();
      if (LOADABLE_SCHEMES.has(scheme)) return null;
      return scheme === 'javascript' || scheme === 'vbscript' ? 'script-url' : 'blocked-url';
    },
  },
  { pattern: /\bexpression\s*\(/gi, effect: 'inert', reason: () => 'expression' },
  { pattern: /(?:^|[\s;{])(?:behavior|-moz-binding)\s*:/gi, effect: 'inert', reason: () => 'binding' },
];

/**
 * What embedCustomCss changes in `css` and what will have no effect on the page, for the theming
 * screen's report before publishing. `css` is the embedded text, the same as the page gets.
 * Comments are looked into for the escapes (they apply everywhere) but not for the rest.
 */
export function customCssFindings(css: string | null | undefined): { css: string; findings: CssFinding[] } {
  const embedded = embedCustomCss(css);
  if (typeof css !== 'string' || css === '') return { css: embedded, findings: [] };
  const text = css.toWellFormed().replace(/\r\n?/g, '\n');
  // Comments blanked but for their line ends, so positions and lines stay those of the owner's text.
  const uncommented = text.replace(/\/\*[\s\S]*?(?:\*\/|$)/g, (comment) => comment.replace(/[^\n]/g, ' '));
  const lineAt = (index: number) => text.slice(0, index).split('\n').length;
  const findings: (CssFinding & { index: number })[] = [];
  for (const { pattern, effect, reason } of CSS_PATTERNS) {
    const source = effect === 'escaped' ? text : uncommented;
    for (const match of source.matchAll(pattern)) {
      const why = reason(match);
      if (why === null) continue;
      const index = match.index ?? 0;
      const excerpt = text.slice(index, index + 80).split('\n')[0] ?? '';
      findings.push({ effect, reason: why, line: lineAt(index), excerpt: excerpt.trim(), index });
    }
  }
  findings.sort((a, b) => a.index - b.index);
  return { css: embedded, findings: findings.slice(0, MAX_FINDINGS).map(({ index: _index, ...finding }) => finding) };
}
