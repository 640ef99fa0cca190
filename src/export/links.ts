/**
 * The addresses a rendered page or stylesheet refers to, and which of them belong to the export.
 * Only the site's own markup is read this way (its attributes are always quoted by Astro);
 * owner HTML inside it has been sanitized and can only add links, which are checked like any other.
 */

const TAG = /<(?:a|link|img|script|source|iframe|area)\b[^>]*>/gi;
const ATTRIBUTE = /\s(?:href|src)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/gi;
const CSS_URL = /url\(\s*(?:"([^"]*)"|'([^']*)'|([^)'"\s]+))\s*\)|@import\s+(?:"([^"]*)"|'([^']*)')/gi;

const ENTITIES: Record<string, string> = { amp: '&', quot: '"', apos: "'", lt: '<', gt: '>' };

/** Undoes the character references an attribute value may carry. */
export function decodeAttribute(value: string): string {
  return value.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name.startsWith('#x') || name.startsWith('#X')) return String.fromCodePoint(Number.parseInt(name.slice(2), 16));
    if (name.startsWith('#')) return String.fromCodePoint(Number.parseInt(name.slice(1), 10));
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/** Every href and src of the document's links, images, scripts and frames, decoded. */
export function htmlReferences(html: string): string[] {
  const found: string[] = [];
  for (const [tag] of html.matchAll(TAG)) {
    for (const match of tag.matchAll(ATTRIBUTE)) found.push(decodeAttribute(match[1] ?? match[2] ?? match[3] ?? ''));
  }
  return found;
}

/** Every url(…) and @import of a stylesheet. */
export function cssReferences(css: string): string[] {
  return [...css.matchAll(CSS_URL)].map((match) => match.slice(1).find((group) => group !== undefined) ?? '');
}

export interface TreeAddress {
  /** Host (and port) the tree is rendered for, e.g. `localhost` or `status.acme.com`. */
  host: string;
  /** '' or e.g. '/status': the path the tree is served under. */
  basePath: string;
}

export type Reference =
  | { kind: 'internal'; path: string }
  | { kind: 'external' }
  /** Points into the tree but cannot be a static file (it needs a query string). */
  | { kind: 'unexportable'; reason: string };

/**
 * A reference found on the page at `pagePath` (a request path, below the base path), read
 * against the tree's address: the request path it names in the tree, or external.
 */
export function classifyReference(reference: string, pagePath: string, tree: TreeAddress): Reference {
  const trimmed = reference.trim();
  if (trimmed === '' || trimmed.startsWith('#')) return { kind: 'external' };
  let url: URL;
  try {
    url = new URL(trimmed, `http://${tree.host}${tree.basePath}${pagePath}`);
  } catch {
    return { kind: 'external' };
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.host !== tree.host) return { kind: 'external' };
  const { pathname } = url;
  // A link of this host outside the base path would be a dead link once the folder is served there.
  if (tree.basePath && pathname !== tree.basePath && !pathname.startsWith(`${tree.basePath}/`)) return { kind: 'unexportable', reason: `${trimmed} is outside ${tree.basePath}/` };
  if (url.search) return { kind: 'unexportable', reason: `${trimmed} needs a query string` };
  const path = pathname.slice(tree.basePath.length);
  return { kind: 'internal', path: path === '' ? '/' : path };
}
