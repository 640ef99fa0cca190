/**
 * The status card: the 1200×630 image a pasted link unfurls with (og:image), as an SVG document
 * that card-png.ts turns into a PNG. It shows the page's name beside a logo area (the name's
 * initial on the brand colour: remote logos are never fetched), the overall status in words with
 * its shape on its status colour, the titles of open incidents, and when the data last changed.
 *
 * Safety: every owner string is cleaned to one line (svgLineText) and escaped exactly once, here,
 * where it is written (xmlText); the brand colour is only ever a validated hex colour. The SVG
 * refers to nothing outside itself (no image, link or font URL).
 *
 * Widths are estimated with the badge's DejaVu Sans metrics (badge-font.ts), the font the card is
 * rendered with, so long names and titles end in "…" inside the card rather than past its edge.
 */
import { STATUS_SHAPES, STATUS_SHAPE_STROKE } from '../components/status-shapes.ts';
import type { StatusTone } from '../components/tones.ts';
import { DEFAULT_BRAND_COLOR, readableTextColor, safeBrandColor } from '../lib/css.ts';
import { BADGE_TONE_COLORS, svgLineText } from './badge.ts';
import { BADGE_FONT_SIZE, clampText } from './badge-font.ts';
import { en } from './share-text.ts';
import { xmlAttribute, xmlText } from './xml.ts';

export const CARD_WIDTH = 1200;
export const CARD_HEIGHT = 630;
/** The family of the font files card-png.ts loads (and nothing else). */
export const CARD_FONT_FAMILY = 'DejaVu Sans';

export interface CardInput {
  pageName: string;
  /** The owner's brand colour as given (validated here), or null. */
  brandColor: string | null | undefined;
  tone: StatusTone;
  /** The overall status in words ("Partial outage"). */
  statusLabel: string;
  /** Titles of the open incidents, as the page lists them. */
  activeTitles: readonly string[];
  /** When the data last changed, in words ("22 Nov 2026, 14:05 UTC"). */
  updated: string;
  /** When set, the data is the last known state of that time (the page's stale notice). */
  staleAsOf: string | null;
}

const MARGIN = 72;
const TEXT_COLOR = '#1f2328';
const MUTED_COLOR = '#57606a';
/** Bold DejaVu Sans runs about a tenth wider than the regular widths badge-font.ts knows. */
const BOLD_FACTOR = 1.12;
/** Incident lines shown; past that the last line says how many more there are. */
const MAX_INCIDENT_LINES = 3;

/** `value` on one line, cut with "…" to fit `maxWidth` px at `size` px. */
function fit(value: string, size: number, maxWidth: number, bold = false): string {
  const scale = (size / BADGE_FONT_SIZE) * (bold ? BOLD_FACTOR : 1);
  return clampText(svgLineText(value), maxWidth / scale);
}

function text(value: string, attributes: { x: number; y: number; size: number; fill: string; bold?: boolean; anchor?: 'middle' }): string {
  const weight = attributes.bold ? ' font-weight="bold"' : '';
  const anchor = attributes.anchor ? ` text-anchor="${attributes.anchor}"` : '';
  return `<text x="${attributes.x}" y="${attributes.y}" font-size="${attributes.size}" fill="${attributes.fill}"${weight}${anchor}>${xmlText(value)}</text>`;
}

/** The first letter of the name, for the logo area ("?" when the name has none). */
function initial(pageName: string): string {
  const first = [...new Intl.Segmenter('en', { granularity: 'grapheme' }).segment(svgLineText(pageName))][0]?.segment ?? '';
  return first.trim() ? first.toLocaleUpperCase('en') : '?';
}

/** What the card lists under its status: up to three titles, or two and "and N more". */
export function incidentLines(titles: readonly string[]): string[] {
  if (titles.length <= MAX_INCIDENT_LINES) return [...titles];
  const shown = titles.slice(0, MAX_INCIDENT_LINES - 1);
  return [...shown, en.cardMore(titles.length - shown.length)];
}

/** The card as an SVG document (UTF-8 text); same input, same bytes. */
export function renderCardSvg(input: CardInput): string {
  const brand = safeBrandColor(input.brandColor) ?? DEFAULT_BRAND_COLOR;
  const toneColor = BADGE_TONE_COLORS[input.tone];
  const nameX = MARGIN + 112 + 32;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${CARD_WIDTH}" height="${CARD_HEIGHT}" viewBox="0 0 ${CARD_WIDTH} ${CARD_HEIGHT}" font-family="${xmlAttribute(CARD_FONT_FAMILY)}">`,
    `<rect width="${CARD_WIDTH}" height="${CARD_HEIGHT}" fill="#ffffff"/>`,
    `<rect width="${CARD_WIDTH}" height="16" fill="${brand}"/>`,
    // The logo area: the name's initial on the brand colour.
    `<rect x="${MARGIN}" y="72" width="112" height="112" rx="20" fill="${brand}"/>`,
    text(initial(input.pageName), { x: MARGIN + 56, y: 151, size: 64, fill: readableTextColor(brand), bold: true, anchor: 'middle' }),
    text(fit(input.pageName || '?', 52, CARD_WIDTH - nameX - MARGIN, true), { x: nameX, y: 146, size: 52, fill: TEXT_COLOR, bold: true }),
    // The overall status: its shape and words in white on its colour (contrast checked in badge.ts).
    `<rect x="${MARGIN}" y="224" width="${CARD_WIDTH - 2 * MARGIN}" height="152" rx="24" fill="${toneColor}"/>`,
    `<g transform="translate(${MARGIN + 32} 252) scale(6)" color="#ffffff" fill="none" stroke="#ffffff" stroke-width="${STATUS_SHAPE_STROKE.width}" stroke-linecap="${STATUS_SHAPE_STROKE.linecap}" stroke-linejoin="${STATUS_SHAPE_STROKE.linejoin}">${STATUS_SHAPES[input.tone].replaceAll('currentColor', '#ffffff')}</g>`,
    text(fit(input.statusLabel, 56, CARD_WIDTH - 2 * MARGIN - 200, true), { x: MARGIN + 168, y: 320, size: 56, fill: '#ffffff', bold: true }),
  ];
  const lines = incidentLines(input.activeTitles);
  if (lines.length > 0) {
    parts.push(text(en.cardActiveHeading, { x: MARGIN, y: 434, size: 26, fill: MUTED_COLOR, bold: true }));
    lines.forEach((line, index) => parts.push(text(fit(line, 30, CARD_WIDTH - 2 * MARGIN), { x: MARGIN, y: 478 + index * 40, size: 30, fill: TEXT_COLOR })));
  }
  const footer = input.staleAsOf === null ? en.cardUpdated(input.updated) : en.cardStale(input.staleAsOf);
  parts.push(text(fit(footer, 24, CARD_WIDTH - 2 * MARGIN), { x: MARGIN, y: 604, size: 24, fill: MUTED_COLOR }));
  parts.push('</svg>');
  return parts.join('');
}
