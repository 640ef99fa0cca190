/**
 * A Shields-style flat SVG badge: "label | message", the label on grey, the message on its status
 * colour, white text, rounded corners (without Shields' gloss gradient and text shadow, so the
 * contrast below is exactly what shows).
 *
 * Safety: every owner string is cleaned (characters XML 1.0 forbids, bidi controls and runs of
 * white space go) and escaped exactly once, here, where it is written. The SVG holds no script,
 * no event attribute, no link and no id or url() reference of any kind; its accessible name is
 * `role="img"`, `aria-label` and `<title>`, all "label: message".
 *
 * Colours: white text on each, WCAG 2 contrast at least 4.5:1 (text at 11px is small text).
 * The status colours are the strong status colours of the default light theme
 * (themes/default.css); tests check both the equality and the contrast.
 *
 * | Part | Colour | White text on it |
 * |---|---|---|
 * | label | `#555555` | 7.46:1 |
 * | operational | `#17703a` | 6.15:1 |
 * | degraded | `#805100` | 6.79:1 |
 * | partial-outage | `#ad3f06` | 6.02:1 |
 * | major-outage | `#b8202c` | 6.40:1 |
 * | maintenance | `#3b4fc4` | 6.77:1 |
 * | unknown | `#5c6570` | 5.91:1 |
 */
import type { StatusTone } from '../components/tones.ts';
import { escapeMarkup } from '../lib/markup.ts';
import { stripXmlForbidden } from './xml.ts';
import { BADGE_FONT_FAMILY, BADGE_FONT_SIZE, clampText, textWidth } from './badge-font.ts';

export const BADGE_CONTENT_TYPE = 'image/svg+xml; charset=utf-8';

export const BADGE_TEXT_COLOR = '#ffffff';
export const BADGE_LABEL_COLOR = '#555555';

export const BADGE_TONE_COLORS: Readonly<Record<StatusTone, string>> = {
  operational: '#17703a',
  degraded: '#805100',
  'partial-outage': '#ad3f06',
  'major-outage': '#b8202c',
  maintenance: '#3b4fc4',
  unknown: '#5c6570',
};

export interface BadgeInput {
  label: string;
  message: string;
  /** Background of the message half: one of BADGE_TONE_COLORS. */
  color: string;
}

export const BADGE_HEIGHT = 20;
/** Space left and right of each text. */
const PADDING = 6;
const RADIUS = 3;
/** Longest text of one half, in px; longer text ends in "…". */
export const MAX_TEXT_WIDTH = 240;

/** C1 controls: XML allows them, but they have no place in a badge (XML's own are left out by stripXmlForbidden). */
const C1_CONTROLS = /[\u007F-\u009F]/g;
/** Bidi marks, embeddings, overrides and isolates: a badge's short text needs none of them. */
const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

/** Owner text made fit for one line of an SVG image: well-formed, no controls, single spaces (not escaped yet). */
export function svgLineText(value: string): string {
  return stripXmlForbidden(value).replace(C1_CONTROLS, '').replace(BIDI_CONTROLS, '').replace(/\s+/g, ' ').trim();
}

/** Owner text made fit for one line of a badge: well-formed, no controls, at most MAX_TEXT_WIDTH. */
export function badgeText(value: string): string {
  return clampText(svgLineText(value) || '?', MAX_TEXT_WIDTH);
}

interface BadgePart {
  text: string;
  /** Estimated text width, px. */
  textWidth: number;
  /** Left edge and width of the part's box, px. */
  x: number;
  width: number;
}

export interface BadgeLayout {
  label: BadgePart;
  message: BadgePart;
  width: number;
  height: number;
  /** The accessible name: "label: message". */
  title: string;
}

function part(text: string, x: number): BadgePart {
  const width = textWidth(text);
  return { text, textWidth: width, x, width: Math.round(width) + 2 * PADDING };
}

/** Sizes and texts of a badge; the route's callers use it for an <img>'s width and height too. */
export function badgeLayout(input: Pick<BadgeInput, 'label' | 'message'>): BadgeLayout {
  const label = part(badgeText(input.label), 0);
  const message = part(badgeText(input.message), label.width);
  return { label, message, width: label.width + message.width, height: BADGE_HEIGHT, title: `${label.text}: ${message.text}` };
}

/**
 * Text is drawn at ten times the size and scaled down by 0.1, as Shields does, so positions and
 * textLength keep one decimal of a pixel in whole numbers.
 */
function textElement(item: BadgePart): string {
  const center = Math.round((item.x + item.width / 2) * 10);
  const length = Math.round(item.textWidth * 10);
  return `<text x="${center}" y="140" transform="scale(.1)" textLength="${length}">${escapeMarkup(item.text)}</text>`;
}

/** The badge as an SVG document (UTF-8 text). */
export function renderBadge(input: BadgeInput): string {
  const layout = badgeLayout(input);
  const { label, message, width, height } = layout;
  const title = escapeMarkup(layout.title);
  const r = RADIUS;
  // Two shapes: the label rounded on the left, the message rounded on the right.
  const labelShape = `M${r} 0H${label.width}V${height}H${r}A${r} ${r} 0 0 1 0 ${height - r}V${r}A${r} ${r} 0 0 1 ${r} 0Z`;
  const messageShape = `M${message.x} 0H${width - r}A${r} ${r} 0 0 1 ${width} ${r}V${height - r}A${r} ${r} 0 0 1 ${width - r} ${height}H${message.x}Z`;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${title}">`,
    `<title>${title}</title>`,
    `<path fill="${BADGE_LABEL_COLOR}" d="${labelShape}"/>`,
    `<path fill="${escapeMarkup(input.color)}" d="${messageShape}"/>`,
    `<g fill="${BADGE_TEXT_COLOR}" text-anchor="middle" font-family="${BADGE_FONT_FAMILY}" font-size="${BADGE_FONT_SIZE * 10}" text-rendering="geometricPrecision">`,
    textElement(label),
    textElement(message),
    '</g></svg>',
  ].join('');
}
