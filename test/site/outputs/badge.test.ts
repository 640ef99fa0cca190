import { describe, expect, it } from 'vitest';
import { contrastRatio, themeVariants } from '../../../themes/contrast.ts';
import { clampText, textWidth } from '../../../src/site/outputs/badge-font.ts';
import {
  BADGE_LABEL_COLOR,
  BADGE_TEXT_COLOR,
  BADGE_TONE_COLORS,
  MAX_TEXT_WIDTH,
  badgeLayout,
  badgeText,
  renderBadge,
} from '../../../src/site/outputs/badge.ts';
import { parseXml } from './xml.ts';

const green = BADGE_TONE_COLORS.operational;

function parse(svg: string) {
  const root = parseXml(svg, 'image/svg+xml').documentElement!;
  const title = root.getElementsByTagName('title')[0]?.textContent;
  const texts = Array.from(root.getElementsByTagName('text')).map((node) => node.textContent);
  return { root, title, texts };
}

/** Every attribute name of every element, e.g. ['xmlns', 'width', ...]. */
function attributeNames(svg: string): string[] {
  const names: string[] = [];
  const visit = (element: Element) => {
    for (const attribute of Array.from(element.attributes)) names.push(attribute.name);
    for (const child of Array.from(element.childNodes)) if (child.nodeType === 1) visit(child as unknown as Element);
  };
  visit(parseXml(svg, 'image/svg+xml').documentElement as unknown as Element);
  return names;
}

describe('renderBadge', () => {
  it('is a well-formed SVG image named "label: message"', () => {
    const svg = renderBadge({ label: 'status', message: 'All systems operational', color: green });
    const { root, title, texts } = parse(svg);
    expect(root.tagName).toBe('svg');
    expect(root.namespaceURI).toBe('http://www.w3.org/2000/svg');
    expect(root.getAttribute('role')).toBe('img');
    expect(root.getAttribute('aria-label')).toBe('status: All systems operational');
    expect(title).toBe('status: All systems operational');
    expect(texts).toEqual(['status', 'All systems operational']);
    expect(Number(root.getAttribute('width'))).toBe(badgeLayout({ label: 'status', message: 'All systems operational' }).width);
    expect(root.getAttribute('height')).toBe('20');
  });

  it('paints the label grey and the message in the given colour, text in white', () => {
    const svg = renderBadge({ label: 'status', message: 'Major outage', color: BADGE_TONE_COLORS['major-outage'] });
    const fills = Array.from(parse(svg).root.getElementsByTagName('path')).map((path) => path.getAttribute('fill'));
    expect(fills).toEqual([BADGE_LABEL_COLOR, '#b8202c']);
    expect(parse(svg).root.getElementsByTagName('g')[0]?.getAttribute('fill')).toBe(BADGE_TEXT_COLOR);
  });

  it('writes hostile text escaped exactly once, and never anything active or external', () => {
    const label = `<script>x</script> & ]]> "q" 'r'`;
    const message = 'Down 🔥 \u202Eשלום\u202C & <img onerror=x>';
    const svg = renderBadge({ label, message, color: green });
    const { root, title, texts } = parse(svg);
    const cleanMessage = 'Down 🔥 שלום & <img onerror=x>';
    expect(texts).toEqual([label, cleanMessage]);
    expect(title).toBe(`${label}: ${cleanMessage}`);
    expect(root.getAttribute('aria-label')).toBe(`${label}: ${cleanMessage}`);
    expect(svg).not.toContain('&amp;amp;');
    expect(svg).not.toMatch(/<script|<img|\u202E/i);
    expect(root.getElementsByTagName('script').length).toBe(0);
    expect(attributeNames(svg).filter((name) => /^on|href$|^id$|^style$/i.test(name))).toEqual([]);
    expect(svg).not.toMatch(/url\(|https?:\/\/(?!www\.w3\.org\/2000\/svg")/);
  });

  it('drops what XML 1.0 forbids and collapses white space, so the document always parses', () => {
    const svg = renderBadge({ label: 'a\u0000b\u0007c\uFFFE\n\t d', message: 'x\uD800y \u0085z', color: green });
    expect(parse(svg).texts).toEqual(['abc d', 'xy z']);
    expect(parse(renderBadge({ label: '\u0001\u202E ', message: '', color: green })).texts).toEqual(['?', '?']);
  });

  it('grows with its text, wide letters more than narrow ones', () => {
    const width = (label: string, message = 'up') => badgeLayout({ label, message }).width;
    expect(width('a')).toBeLessThan(width('ab'));
    expect(width('ab')).toBeLessThan(width('abc'));
    expect(width('WWWW')).toBeGreaterThan(width('iiii'));
    expect(badgeLayout({ label: 'x', message: 'Partial outage' }).width).toBeGreaterThan(badgeLayout({ label: 'x', message: 'Down' }).width);
    const layout = badgeLayout({ label: 'Database', message: 'Operational' });
    expect(layout.message.x).toBe(layout.label.width);
    expect(layout.width).toBe(layout.label.width + layout.message.width);
  });

  it('clamps very long text with an ellipsis, never splitting a character', () => {
    const layout = badgeLayout({ label: 'Payments '.repeat(200), message: '👩‍👩‍👧'.repeat(100) });
    expect(layout.width).toBeLessThanOrEqual(2 * (MAX_TEXT_WIDTH + 12));
    expect(layout.label.text.endsWith('…')).toBe(true);
    expect(layout.label.textWidth).toBeLessThanOrEqual(MAX_TEXT_WIDTH);
    expect(layout.message.text.endsWith('👩‍👩‍👧…')).toBe(true);
    expect(layout.message.text.isWellFormed()).toBe(true);
    expect(renderBadge({ label: 'x'.repeat(100_000), message: 'y', color: green }).length).toBeLessThan(2_000);
  });
});

describe('badge text', () => {
  it('estimates widths from the font table and keeps short text as it is', () => {
    expect(textWidth('')).toBe(0);
    expect(textWidth('m')).toBeGreaterThan(textWidth('l'));
    expect(textWidth('é')).toBeGreaterThan(0);
    expect(textWidth('中')).toBeGreaterThan(textWidth('a'));
    expect(clampText('Operational', MAX_TEXT_WIDTH)).toBe('Operational');
    expect(badgeText('  Primary   database ')).toBe('Primary database');
  });
});

describe('badge colours', () => {
  const light = themeVariants().get('default (light)')!;

  it.each(Object.entries(BADGE_TONE_COLORS))('%s is the default theme’s strong status colour', (tone, color) => {
    expect(light.get(`--pl-status-${tone}`)).toBe(color);
  });

  it.each([['label', BADGE_LABEL_COLOR], ...Object.entries(BADGE_TONE_COLORS)])('white text on %s is at least 4.5:1', (_, color) => {
    expect(contrastRatio(BADGE_TEXT_COLOR, color)).toBeGreaterThanOrEqual(4.5);
  });
});
