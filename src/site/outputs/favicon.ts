/**
 * The page's status icon for browser tabs: the overall status's shape (status-shapes.ts) in its
 * status colour on a white tile, so it reads on light and dark tab bars alike and never by colour
 * alone. Constant markup per status: nothing owner-supplied goes in.
 */
import { STATUS_SHAPES, STATUS_SHAPE_STROKE } from '../components/status-shapes.ts';
import type { StatusTone } from '../components/tones.ts';
import { BADGE_TONE_COLORS } from './badge.ts';

export const FAVICON_SIZE = 32;
/** Side of the PNG fallback, px. */
export const FAVICON_PNG_SIZE = 32;

export function renderFaviconSvg(tone: StatusTone): string {
  const color = BADGE_TONE_COLORS[tone];
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${FAVICON_SIZE}" height="${FAVICON_SIZE}" viewBox="0 0 16 16">`,
    '<rect width="16" height="16" rx="3" fill="#ffffff"/>',
    `<g fill="none" stroke="${color}" stroke-width="${STATUS_SHAPE_STROKE.width + 0.25}" stroke-linecap="${STATUS_SHAPE_STROKE.linecap}" stroke-linejoin="${STATUS_SHAPE_STROKE.linejoin}">`,
    STATUS_SHAPES[tone].replaceAll('currentColor', color),
    '</g></svg>',
  ].join('');
}
