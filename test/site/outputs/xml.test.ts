import { SaxesParser } from 'saxes';
import { describe, expect, it } from 'vitest';
import { stripXmlForbidden, xmlAttribute, xmlElement, xmlEmptyElement, xmlText } from '../../../src/site/outputs/xml.ts';

/** Parses a document with a strict, conformant XML parser; returns the text and attributes it read. */
function parse(xml: string): { text: string; attributes: Record<string, string> } {
  const parser = new SaxesParser();
  let text = '';
  let attributes: Record<string, string> = {};
  parser.on('error', (error) => {
    throw error;
  });
  parser.on('text', (chunk) => {
    text += chunk;
  });
  parser.on('opentag', (tag) => {
    if (tag.name === 'e') attributes = Object.fromEntries(Object.entries(tag.attributes).map(([key, value]) => [key, String(value)]));
  });
  parser.write(xml).close();
  return { text, attributes };
}

const HOSTILE = `Tom & "Jerry" <script>alert('x')</script> ]]> &amp; 😀 שלום עולם \t tab\nline\r\nwindows\rold-mac`;

describe('xmlText and xmlAttribute', () => {
  it('escape markup exactly once', () => {
    expect(xmlText('a & b < c > d')).toBe('a &amp; b &lt; c &gt; d');
    expect(xmlText('&amp;')).toBe('&amp;amp;');
    expect(xmlAttribute(`"it's"`)).toBe('&quot;it&apos;s&quot;');
  });

  it('never let ]]> through, so the text is safe anywhere', () => {
    expect(xmlText(']]>')).not.toContain(']]>');
  });

  it('give a conformant parser back the exact original text, line breaks and all', () => {
    const parsed = parse(`<doc>${xmlElement('e', HOSTILE, { a: HOSTILE })}</doc>`);
    expect(parsed.text).toBe(HOSTILE);
    expect(parsed.attributes.a).toBe(HOSTILE);
  });

  it('leave out what XML 1.0 cannot carry, and keep everything else', () => {
    const bad = 'a\u0000b\u0001c\u0008d\u000Be\u000Cf\u001Fg\uFFFEh\uFFFFi\uD800j\uDFFFk';
    expect(stripXmlForbidden(bad)).toBe('abcdefghijk');
    // Astral characters are surrogate pairs in JavaScript: they stay whole.
    expect(stripXmlForbidden('😀\uD83D')).toBe('😀');
    expect(stripXmlForbidden('\t\n\r\u0085\uFFFD\u{10FFFF}')).toBe('\t\n\r\u0085\uFFFD\u{10FFFF}');
    const parsed = parse(`<doc>${xmlElement('e', bad, { a: bad })}</doc>`);
    expect(parsed.text).toBe('abcdefghijk');
  });

  it('write empty elements with escaped attributes', () => {
    expect(xmlEmptyElement('link', { href: 'https://x.test/?a=1&b=<2>' })).toBe('<link href="https://x.test/?a=1&amp;b=&lt;2&gt;"/>');
  });
});
