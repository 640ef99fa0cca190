/**
 * SVG images (the status card, the favicon) to PNG with resvg, a native renderer shipped as
 * prebuilt binaries in the npm package. The fonts shipped in the `dejavu-fonts-ttf` package come
 * first, never the system's, so the same SVG gives the same bytes on every machine; they cover
 * Latin, Greek, Cyrillic, Arabic, Hebrew and many symbols, not CJK. For the characters they lack
 * (a Japanese status word, a page named in Chinese), resvg falls back, glyph by glyph, to the
 * font files the owner names (`CARD_FONT_FILES`); without one, such characters are left out.
 *
 * Parsing and drawing run on libuv's thread pool (renderAsync), which stops when the request that
 * asked for it is abandoned; the PNG encoding (asPng(), resvg offers no asynchronous one) runs on
 * the caller's thread, the site's render thread, never the front thread, which only sends bytes.
 * Results are kept by the SVG's hash: the front cache re-renders a page's outputs every few
 * seconds under load, and an unchanged SVG is then answered without drawing it again. One drawing
 * at a time (about 60-100 ms of CPU for a card, a third of it PNG encoding): at most one core of
 * the machine ever draws, whatever the number of pages and hosts whose data just changed.
 */
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { renderAsync, type ResvgRenderOptions } from '@resvg/resvg-js';
import { CARD_FONT_FAMILY } from './card.ts';

const require = createRequire(import.meta.url);

export const PNG_CONTENT_TYPE = 'image/png';

let fontFiles: string[] | null = null;

/** Resolved once, from the installed package (no network, no system fonts). */
function fonts(): string[] {
  fontFiles ??= ['dejavu-fonts-ttf/ttf/DejaVuSans.ttf', 'dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf'].map((file) => require.resolve(file));
  return fontFiles;
}

/** PNGs kept by SVG hash: a handful of pages × (card, favicon), a few tens of KB each. */
const MAX_KEPT = 64;
const kept = new Map<string, Uint8Array<ArrayBuffer>>();

function keep(key: string, png: Uint8Array<ArrayBuffer>): void {
  if (kept.size >= MAX_KEPT) kept.delete(kept.keys().next().value ?? '');
  kept.set(key, png);
}

/** Forgets every kept PNG (tests that must see a real render). */
export function forgetRenderedPngs(): void {
  kept.clear();
}

/** The drawing in progress or last finished: the next one starts after it. */
let lane: Promise<unknown> = Promise.resolve();

function oneAtATime<T>(work: () => Promise<T>): Promise<T> {
  const result = lane.then(work, work);
  lane = result.catch(() => undefined);
  return result;
}

export interface PngOptions {
  /** Pixels wide (default: the SVG's own size). */
  width?: number;
  signal?: AbortSignal;
  /** Font files to fall back to, after DejaVu, for the characters it lacks. */
  fallbackFontFiles?: readonly string[];
}

/** The PNG of `svg`. */
export async function svgToPng(svg: string, options: PngOptions = {}): Promise<Uint8Array<ArrayBuffer>> {
  const fallbacks = options.fallbackFontFiles ?? [];
  const key = createHash('sha256').update(svg).update(`\0${options.width ?? ''}\0${fallbacks.join('\0')}`).digest('base64url');
  const known = kept.get(key);
  if (known) return known;
  const renderOptions: ResvgRenderOptions = {
    font: { fontFiles: [...fonts(), ...fallbacks], loadSystemFonts: false, defaultFontFamily: CARD_FONT_FAMILY, sansSerifFamily: CARD_FONT_FAMILY },
    fitTo: options.width === undefined ? { mode: 'original' } : { mode: 'width', value: options.width },
    logLevel: 'off',
  };
  const png = await oneAtATime(async () => {
    options.signal?.throwIfAborted();
    const image = await renderAsync(svg, renderOptions, options.signal ?? null);
    // Synchronous, on this (the site's) thread: about a third of a card's CPU.
    return new Uint8Array(image.asPng());
  });
  keep(key, png);
  return png;
}
