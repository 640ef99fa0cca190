/**
 * Owner-written header and footer HTML, made safe to insert into a status page.
 *
 * An allowlist (sanitize-html): inline formatting, paragraphs, lists, h2-h4 (the page owns h1)
 * and links. Links keep href (http, https, mailto or a relative URL; never protocol-relative)
 * and title, and always get rel="noopener noreferrer nofollow"; target is dropped so a link
 * cannot open or script a new browsing context. No style or id attributes: styling belongs in
 * the page's custom CSS, and ids could clash with the page's own. `class` is allowed so that
 * custom CSS can target owner markup, except names starting with `pl-`, the namespace of the
 * site's own classes, so owner text cannot dress up as the page's status banners.
 * Disallowed tags are dropped; the content of script-like and embedded-document tags (listed in
 * DROPPED_WITH_CONTENT) is dropped with them, other disallowed tags keep their text, escaped.
 * Plain text comes out HTML-escaped. Sanitizing twice gives the same result as once.
 */
import sanitizeHtml from 'sanitize-html';

const ALLOWED_TAGS = [
  'a', 'b', 'strong', 'i', 'em', 'u', 's', 'small', 'code', 'span', 'br', 'p', 'ul', 'ol', 'li', 'h2', 'h3', 'h4',
];

/** Dropped together with everything inside them, not just the tags. */
const DROPPED_WITH_CONTENT = [
  'script', 'style', 'textarea', 'option', 'select', 'xmp', 'noscript', 'noembed', 'noframes', 'iframe',
  'plaintext', 'template', 'title', 'object', 'embed', 'svg', 'math',
];

const LINK_REL = 'noopener noreferrer nofollow';

/** A plain class token outside the site's own `pl-` namespace. */
const OWNER_CLASS = /^(?!pl-)[A-Za-z_][\w-]{0,63}$/;

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: ALLOWED_TAGS,
  allowedAttributes: { a: ['href', 'title', 'rel'], '*': ['class'] },
  allowedClasses: { '*': [OWNER_CLASS] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: {},
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  nonTextTags: DROPPED_WITH_CONTENT,
  enforceHtmlBoundary: false,
  parseStyleAttributes: false,
  // Runs before the attribute allowlist, so `rel` is always ours, never the owner's.
  transformTags: {
    a: (tagName, attribs) => ({ tagName, attribs: { ...attribs, rel: LINK_REL } }),
  },
};

export function sanitizeOwnerHtml(html: string | null | undefined): string {
  if (typeof html !== 'string' || html.trim() === '') return '';
  // NUL is never meaningful in owner text and parsers treat it inconsistently.
  return sanitizeHtml(html.replaceAll('\u0000', ''), OPTIONS);
}
