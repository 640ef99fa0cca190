/**
 * Escaping owner text for the text formats the site writes by hand (the Astro templates escape
 * their own output): XML and HTML text and attribute values, and Markdown. Each function escapes
 * once, for one format, at the place the text is written.
 */

const MARKUP_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** For XML or HTML text and for double- or single-quoted attribute values alike. */
export function escapeMarkup(text: string): string {
  return text.replace(/[&<>"']/g, (char) => MARKUP_ESCAPES[char] ?? char);
}

/**
 * Plain text inside Markdown (e.g. an image's alt text): every ASCII punctuation character is
 * backslash-escaped, as CommonMark allows, so none of it can start a link, emphasis, an entity
 * or inline HTML; line breaks become spaces.
 */
export function escapeMarkdownText(text: string): string {
  return text.replace(/\s+/g, ' ').replace(/[!-/:-@[-`{-~]/g, '\\$&');
}

/** A URL as a Markdown link destination: the characters that would end or split it, percent-encoded. */
export function markdownUrl(url: string): string {
  return url.replace(/[\s()<>\\]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}
