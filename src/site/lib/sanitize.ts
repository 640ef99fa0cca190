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

/** Why part of the owner's HTML is left out (the theming screen words each one from the catalogs). */
export type HtmlRemovalReason =
  | 'script'
  | 'style-element'
  | 'embedded'
  | 'form'
  | 'image'
  | 'tag'
  | 'event-handler'
  | 'style-attribute'
  | 'id'
  | 'href'
  | 'target'
  | 'reserved-class'
  | 'attribute';

export interface HtmlRemoval {
  kind: 'element' | 'attribute';
  /** The element's name, or the attribute's. */
  name: string;
  /** For an attribute: the element it was on. */
  element?: string;
  /** How many times the input has it. */
  count: number;
  reason: HtmlRemovalReason;
}

const FORM_TAGS = new Set(['form', 'input', 'button', 'select', 'option', 'textarea', 'label', 'fieldset', 'datalist', 'output']);
const EMBEDDED_TAGS = new Set(['iframe', 'frame', 'frameset', 'object', 'embed', 'svg', 'math', 'template', 'noembed', 'noframes', 'applet', 'portal']);
const IMAGE_TAGS = new Set(['img', 'picture', 'source', 'video', 'audio', 'track', 'canvas', 'image']);

function elementReason(tag: string): HtmlRemovalReason {
  if (tag === 'script' || tag === 'noscript') return 'script';
  if (tag === 'style' || tag === 'link') return 'style-element';
  if (EMBEDDED_TAGS.has(tag)) return 'embedded';
  if (FORM_TAGS.has(tag)) return 'form';
  if (IMAGE_TAGS.has(tag)) return 'image';
  return 'tag';
}

function attributeReason(name: string): HtmlRemovalReason {
  if (/^on/i.test(name)) return 'event-handler';
  if (name === 'style') return 'style-attribute';
  if (name === 'id') return 'id';
  if (name === 'href') return 'href';
  if (name === 'target') return 'target';
  if (name === 'class') return 'reserved-class';
  return 'attribute';
}

/**
 * Every element and attribute the parser sees, counted by name (classes one by one), except what
 * lies inside an element dropped with its content: that goes with its container, reported once.
 */
function census(html: string): { elements: Map<string, number>; attributes: Map<string, number> } {
  const elements = new Map<string, number>();
  const attributes = new Map<string, number>();
  const add = (map: Map<string, number>, key: string, by = 1) => map.set(key, (map.get(key) ?? 0) + by);
  const open: string[] = [];
  let insideDropped = 0;
  // Only the parser's view is wanted (onOpenTag sees every tag with its raw attributes before any
  // filtering); the text this call returns is thrown away.
  sanitizeHtml(html, {
    allowedTags: false,
    allowedAttributes: false,
    allowVulnerableTags: true,
    nonTextTags: [],
    onOpenTag: (tag: string, attribs: Record<string, string>) => {
      open.push(tag);
      if (insideDropped === 0) {
        add(elements, tag);
        for (const [name, value] of Object.entries(attribs)) {
          if (name === 'class') for (const token of value.split(/\s+/).filter(Boolean)) add(attributes, `${tag} class ${token}`);
          else add(attributes, `${tag} ${name}`);
        }
      }
      if (DROPPED_WITH_CONTENT.includes(tag)) insideDropped += 1;
    },
    onCloseTag: () => {
      const tag = open.pop();
      if (tag !== undefined && DROPPED_WITH_CONTENT.includes(tag)) insideDropped -= 1;
    },
  });
  return { elements, attributes };
}

/**
 * What sanitizeOwnerHtml leaves out of `html`, and why: the sanitizer's own output compared with
 * its input (the parser's view of both), so the report can never disagree with what the page
 * shows. `rel` on links is the sanitizer's own and never counts.
 */
export function ownerHtmlRemovals(html: string | null | undefined): { html: string; removed: HtmlRemoval[] } {
  const sanitized = sanitizeOwnerHtml(html);
  if (typeof html !== 'string' || html.trim() === '') return { html: sanitized, removed: [] };
  const before = census(html.replaceAll('\u0000', ''));
  const after = census(sanitized);
  const removed: HtmlRemoval[] = [];
  for (const [tag, count] of before.elements) {
    const lost = count - (after.elements.get(tag) ?? 0);
    if (lost > 0) removed.push({ kind: 'element', name: tag, count: lost, reason: elementReason(tag) });
  }
  const classes = new Map<string, number>();
  for (const [key, count] of before.attributes) {
    const [tag = '', name = '', token] = key.split(' ');
    // An element that is gone takes its attributes with it: reported once, as the element.
    if (!after.elements.has(tag) || (tag === 'a' && name === 'rel')) continue;
    const lost = count - (after.attributes.get(key) ?? 0);
    if (lost <= 0) continue;
    if (token !== undefined) {
      const key = `${tag} ${token.startsWith('pl-') ? 'reserved-class' : 'attribute'}`;
      classes.set(key, (classes.get(key) ?? 0) + lost);
      continue;
    }
    removed.push({ kind: 'attribute', name, element: tag, count: lost, reason: attributeReason(name) });
  }
  for (const [key, count] of classes) {
    const [tag = '', reason] = key.split(' ');
    removed.push({ kind: 'attribute', name: 'class', element: tag, count, reason: reason === 'reserved-class' ? 'reserved-class' : 'attribute' });
  }
  return { html: sanitized, removed };
}
