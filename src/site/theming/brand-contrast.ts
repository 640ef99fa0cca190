/**
 * The brand colour's WCAG 2.x contrast against each theme's surfaces, for the console's theming
 * screen: which pairs fall below AA (4.5:1 for text, 3:1 for large text and interface parts).
 * The surfaces are read from the theme tokens themselves (themes/*.css through
 * themes/contrast.ts, the parser that proves the themes' own pairs), so there is one source.
 * Pure: the translator is handed in and every visible word comes from the catalogs.
 */
import { contrastRatio as hexContrast, themeVariantsOf, type ThemeTexts } from '../../../themes/contrast.ts';
import { readableTextColor, safeBrandColor } from '../lib/css.ts';
import type { TextKey } from '../i18n/catalog.ts';
import type { Translator } from '../i18n/translator.ts';

/** WCAG 2.x AA minimums. */
export const AA_TEXT = 4.5;
export const AA_LARGE = 3;

/** The theme variants a visitor can see, as themes/contrast.ts names them, and their label. */
export const THEME_VARIANTS = [
  { id: 'default-light', source: 'default (light)', label: 'theming.variant.defaultLight' },
  { id: 'default-dark', source: 'default (dark)', label: 'theming.variant.defaultDark' },
  { id: 'dark', source: 'dark', label: 'theming.variant.dark' },
  { id: 'high-contrast-light', source: 'high-contrast (light)', label: 'theming.variant.highContrastLight' },
  { id: 'high-contrast-dark', source: 'high-contrast (dark)', label: 'theming.variant.highContrastDark' },
] as const satisfies readonly { id: string; source: string; label: TextKey }[];
export type ThemeVariantId = (typeof THEME_VARIANTS)[number]['id'];

export const SURFACES = [
  { token: '--pl-surface-page', label: 'theming.surface.page' },
  { token: '--pl-surface-card', label: 'theming.surface.card' },
  { token: '--pl-surface-raised', label: 'theming.surface.raised' },
] as const satisfies readonly { token: string; label: TextKey }[];
export type SurfaceToken = (typeof SURFACES)[number]['token'];

export interface ContrastPair {
  variant: ThemeVariantId;
  surface: SurfaceToken;
  /** The surface's colour in that variant (a hex value from the theme file). */
  surfaceColor: string;
  /** Rounded down to two decimals, so 4.499 never reads as passing. */
  ratio: number;
  /** At least 4.5:1: fine for body text. */
  text: boolean;
  /** At least 3:1: fine for large text (24 px, or 18.66 px bold) and interface parts. */
  large: boolean;
}

export interface ContrastWarning {
  level: 'text' | 'large';
  variant: ThemeVariantId;
  surface: SurfaceToken;
  message: string;
}

export type BrandContrastReport =
  | { valid: false; message: string }
  | {
      valid: true;
      /** The colour as the page will use it (lower-case hex). */
      color: string;
      /** The text colour the site puts on the brand band, and its ratio (always AA: black or white, whichever is higher). */
      onBrand: '#000000' | '#ffffff';
      onBrandRatio: number;
      pairs: ContrastPair[];
      /** One per pair below 4.5:1 (level `large` when also below 3:1), in the translator's language. */
      warnings: ContrastWarning[];
    };

/** Rounded down: a ratio shown as 4.50 is at least 4.5. */
function floor2(ratio: number): number {
  return Math.floor(ratio * 100) / 100;
}

/** Surface colours per variant, from the themes' own text. */
export function themeSurfaces(texts: ThemeTexts): Map<ThemeVariantId, Map<SurfaceToken, string>> {
  const variants = themeVariantsOf(texts);
  const result = new Map<ThemeVariantId, Map<SurfaceToken, string>>();
  for (const variant of THEME_VARIANTS) {
    const tokens = variants.get(variant.source);
    if (!tokens) throw new Error(`theme variant not found: ${variant.source}`);
    const surfaces = new Map<SurfaceToken, string>();
    for (const surface of SURFACES) {
      const value = tokens.get(surface.token);
      if (!value) throw new Error(`${variant.source}: ${surface.token} is not set`);
      surfaces.set(surface.token, value);
    }
    result.set(variant.id, surfaces);
  }
  return result;
}

/** The brand colour against every theme's surfaces; `invalid` when it is no hex colour the page would use. */
export function brandContrast(value: string, texts: ThemeTexts, i18n: Translator): BrandContrastReport {
  const color = safeBrandColor(value);
  if (color === null) return { valid: false, message: i18n.t('theming.contrast.invalid', { value: value.slice(0, 64) }) };
  const onBrand = readableTextColor(color);
  const pairs: ContrastPair[] = [];
  const warnings: ContrastWarning[] = [];
  const surfaces = themeSurfaces(texts);
  for (const variant of THEME_VARIANTS) {
    for (const surface of SURFACES) {
      const surfaceColor = surfaces.get(variant.id)?.get(surface.token) ?? '';
      const ratio = floor2(hexContrast(color, surfaceColor));
      const pair: ContrastPair = { variant: variant.id, surface: surface.token, surfaceColor, ratio, text: ratio >= AA_TEXT, large: ratio >= AA_LARGE };
      pairs.push(pair);
      if (pair.text) continue;
      const level = pair.large ? 'text' : 'large';
      const params = { variant: i18n.t(variant.label), color, surface: i18n.t(surface.label), ratio };
      warnings.push({
        level,
        variant: variant.id,
        surface: surface.token,
        message: level === 'text' ? i18n.t('theming.contrast.belowText', params) : i18n.t('theming.contrast.belowLarge', params),
      });
    }
  }
  return { valid: true, color, onBrand, onBrandRatio: floor2(hexContrast(color, onBrand)), pairs, warnings };
}
