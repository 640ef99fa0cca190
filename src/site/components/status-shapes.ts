/**
 * The shape of each status, drawn in a 16×16 box with `currentColor` strokes: check in a circle,
 * warning triangle, half-filled circle, octagon with a cross, clock, dashed circle with "?". The
 * page's icons (StatusIcon.astro), the status card and the favicon all draw these same shapes.
 * Constant markup: no owner text ever goes in here.
 */
import type { Tone } from './tones.ts';

export const STATUS_SHAPES: Readonly<Record<Tone, string>> = {
  operational: '<circle cx="8" cy="8" r="6.5"/><path d="M5 8.25 7.1 10.3 11 6.1"/>',
  degraded: '<path d="M8 1.75 14.75 13.75H1.25ZM8 6v3.25M8 11.6v.15"/>',
  'partial-outage': '<circle cx="8" cy="8" r="6.5"/><path d="M8 1.5a6.5 6.5 0 0 1 0 13Z" fill="currentColor" stroke="none"/>',
  'major-outage': '<path d="M5.3 1.25h5.4l4.05 4.05v5.4l-4.05 4.05H5.3l-4.05-4.05V5.3ZM5.9 5.9l4.2 4.2M10.1 5.9l-4.2 4.2"/>',
  maintenance: '<circle cx="8" cy="8" r="6.5"/><path d="M8 4.25V8l2.6 1.6"/>',
  unknown: '<circle cx="8" cy="8" r="6.5" stroke-dasharray="2.6 1.9"/><path d="M6.1 6.3a1.95 1.95 0 1 1 2.7 1.8c-.5.25-.8.6-.8 1.15v.3M8 11.6v.15"/>',
  neutral: '<circle cx="8" cy="8" r="3" fill="currentColor" stroke="none"/>',
};

/** The stroke every shape is drawn with (in the 16-unit box). */
export const STATUS_SHAPE_STROKE = { width: 1.75, linecap: 'round', linejoin: 'round' } as const;
