/**
 * How wide a badge's text is, without a browser: per-character advance widths of the badge font
 * at 11px, the way Shields estimates Verdana 11px. The font stack is Verdana, Geneva, DejaVu Sans;
 * DejaVu Sans has Verdana's proportions, and its widths below were measured in Chromium
 * (canvas measureText, `11px DejaVu Sans`). The SVG also sets textLength, so a viewer whose font
 * differs a little still fits the text to the box.
 */

export const BADGE_FONT_FAMILY = 'Verdana,Geneva,DejaVu Sans,sans-serif';
export const BADGE_FONT_SIZE = 11;

/** Advance widths in px of U+0020 (space) to U+007E (~), in code point order. */
const ASCII_WIDTHS = [
  3.5, 4.41, 5.06, 9.22, 7, 10.45, 8.58, 3.02, 4.29, 4.29, 5.5, 9.22, 3.5, 3.97, 3.5, 3.71, // space to /
  7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 3.71, 3.71, 9.22, 9.22, 9.22, 5.84, // 0 to ?
  11, 7.52, 7.55, 7.68, 8.47, 6.95, 6.33, 8.52, 8.27, 3.24, 3.24, 7.21, 6.13, 9.49, 8.23, 8.66, // @ to O
  6.63, 8.66, 7.64, 6.98, 6.72, 8.05, 7.52, 10.88, 7.54, 6.72, 7.54, 4.29, 3.71, 4.29, 9.22, 5.5, // P to _
  5.5, 6.74, 6.98, 6.05, 6.98, 6.77, 3.87, 6.98, 6.97, 3.06, 3.06, 6.37, 3.06, 10.72, 6.97, 6.73, // ` to o
  6.98, 6.98, 4.52, 5.73, 4.31, 6.97, 6.51, 9, 6.51, 6.51, 5.77, 7, 3.71, 7, 9.22, // p to ~
] as const;

/** Other scripts: about a wide Latin lowercase letter, so the box rather errs on the roomy side. */
const OTHER_WIDTH = 7.5;
/** CJK, emoji and other wide characters take about one em. */
const WIDE_WIDTH = 11;
const ELLIPSIS = '\u2026';
const ELLIPSIS_WIDTH = 11;

// East Asian wide ranges and the emoji planes (a coarse cut is enough for an estimate).
const WIDE = /[\u1100-\u115F\u2E80-\uA4CF\uAC00-\uD7A3\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFF60\uFFE0-\uFFE6\u{1F000}-\u{1FAFF}\u{20000}-\u{3FFFD}]/u;

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

/** One user-perceived character: its base code point decides the width. */
function graphemeWidth(grapheme: string): number {
  const code = grapheme.codePointAt(0) ?? 0x20;
  if (code >= 0x20 && code <= 0x7e) return ASCII_WIDTHS[code - 0x20] ?? OTHER_WIDTH;
  if (grapheme === ELLIPSIS) return ELLIPSIS_WIDTH;
  return WIDE.test(grapheme) ? WIDE_WIDTH : OTHER_WIDTH;
}

/** Estimated width in px of `text` in the badge font. */
export function textWidth(text: string): number {
  let width = 0;
  for (const { segment } of graphemes.segment(text)) width += graphemeWidth(segment);
  return width;
}

/**
 * `text` cut to at most `maxWidth` px, whole characters only (an emoji or an accented letter is
 * never split), ending in "…" when cut.
 */
export function clampText(text: string, maxWidth: number): string {
  if (textWidth(text) <= maxWidth) return text;
  let kept = '';
  let width = ELLIPSIS_WIDTH;
  for (const { segment } of graphemes.segment(text)) {
    width += graphemeWidth(segment);
    if (width > maxWidth) break;
    kept += segment;
  }
  return `${kept.trimEnd()}${ELLIPSIS}`;
}
