/**
 * Text into XML 1.0, escaped exactly once. Owner and incident text may hold anything, so what XML
 * cannot carry at all (C0 controls other than tab, line feed and carriage return; lone surrogates;
 * U+FFFE and U+FFFF) is dropped rather than written: one such character would make a whole feed
 * unreadable. Carriage returns (and tabs and line feeds in attributes) are written as character
 * references, because a parser would otherwise normalize them away.
 */

/** Characters outside XML 1.0's Char production; lone surrogates are matched by the `u` flag. */
const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDFFF]/gu;

/** The text with every character XML 1.0 forbids left out. */
export function stripXmlForbidden(value: string): string {
  return value.replace(FORBIDDEN, '');
}

const TEXT_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '\r': '&#xD;' };

const ATTRIBUTE_ESCAPES: Record<string, string> = {
  ...TEXT_ESCAPES,
  '"': '&quot;',
  "'": '&apos;',
  '\t': '&#x9;',
  '\n': '&#xA;',
};

/** Character data of an element. `>` is escaped too, so `]]>` can never appear. */
export function xmlText(value: string): string {
  return stripXmlForbidden(value).replace(/[&<>\r]/g, (char) => TEXT_ESCAPES[char] ?? char);
}

/** An attribute value, for either quote style. */
export function xmlAttribute(value: string): string {
  return stripXmlForbidden(value).replace(/[&<>"'\t\n\r]/g, (char) => ATTRIBUTE_ESCAPES[char] ?? char);
}

/** `<name attr="…">text</name>`; attribute values and text escaped here, once. */
export function xmlElement(name: string, text: string, attributes: Readonly<Record<string, string>> = {}): string {
  return `<${name}${xmlAttributes(attributes)}>${xmlText(text)}</${name}>`;
}

/** `<name attr="…"/>` */
export function xmlEmptyElement(name: string, attributes: Readonly<Record<string, string>>): string {
  return `<${name}${xmlAttributes(attributes)}/>`;
}

function xmlAttributes(attributes: Readonly<Record<string, string>>): string {
  return Object.entries(attributes)
    .map(([key, value]) => ` ${key}="${xmlAttribute(value)}"`)
    .join('');
}
