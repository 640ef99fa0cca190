import { describe, expect, it } from 'vitest';
import { themeVariants } from '../../../themes/contrast.ts';
import { translator } from '../../../src/site/i18n/translator.ts';
import { brandContrast, themeSurfaces, type BrandContrastReport, type ContrastPair } from '../../../src/site/theming/brand-contrast.ts';
import { readThemeTexts } from '../../../src/site/theming/theme-files.ts';

// What the console (launcher thread) reads; the site's own code hands in the same files' text
// (src/site/styles/theme-sources.ts, a Vite `?inline` import, which vitest leaves empty).
const THEME_TEXTS = readThemeTexts();

const en = translator('en');

function valid(report: BrandContrastReport): Extract<BrandContrastReport, { valid: true }> {
  if (!report.valid) throw new Error(`expected a valid report: ${report.message}`);
  return report;
}

function pair(report: BrandContrastReport, variant: ContrastPair['variant'], surface: ContrastPair['surface']): ContrastPair {
  const found = valid(report).pairs.find((p) => p.variant === variant && p.surface === surface);
  if (!found) throw new Error(`no pair ${variant} ${surface}`);
  return found;
}

describe('brand colour contrast against the themes', () => {
  it('reads the theme files from disk, from the source tree or the working directory', () => {
    expect(readThemeTexts().default).toContain('--pl-surface-page');
    expect(readThemeTexts('themes')).toEqual(readThemeTexts());
  });

  it('reads the surfaces from the theme files the stylesheet embeds (the same values the themes are proven with)', () => {
    const fromFiles = themeVariants();
    const surfaces = themeSurfaces(THEME_TEXTS);
    expect(surfaces.get('default-light')?.get('--pl-surface-card')).toBe(fromFiles.get('default (light)')?.get('--pl-surface-card'));
    expect(surfaces.get('default-light')?.get('--pl-surface-page')).toBe('#f4f5f7');
    expect(surfaces.get('default-dark')?.get('--pl-surface-page')).toBe(fromFiles.get('default (dark)')?.get('--pl-surface-page'));
    expect(surfaces.get('high-contrast-dark')?.get('--pl-surface-card')).toBe('#000000');
  });

  it('gives the known WCAG ratios: black on white 21, #767676 on white 4.54, #777777 on white 4.478 (shown 4.47: rounded down)', () => {
    expect(pair(brandContrast('#000000', THEME_TEXTS, en), 'default-light', '--pl-surface-card').ratio).toBe(21);
    const grey = pair(brandContrast('#767676', THEME_TEXTS, en), 'default-light', '--pl-surface-card');
    expect(grey).toMatchObject({ ratio: 4.54, text: true, large: true, surfaceColor: '#ffffff' });
    const lighter = pair(brandContrast('#777777', THEME_TEXTS, en), 'default-light', '--pl-surface-card');
    expect(lighter).toMatchObject({ ratio: 4.47, text: false, large: true });
    // #949494 on white is 3.03: large text only; #959595 is 2.99: below both.
    expect(pair(brandContrast('#949494', THEME_TEXTS, en), 'default-light', '--pl-surface-card')).toMatchObject({ ratio: 3.03, text: false, large: true });
    expect(pair(brandContrast('#959595', THEME_TEXTS, en), 'default-light', '--pl-surface-card')).toMatchObject({ ratio: 2.99, text: false, large: false });
  });

  it('rounds down, so a pair shown as passing really passes', () => {
    for (const p of valid(brandContrast('#7a7a7a', THEME_TEXTS, en)).pairs) expect(p.text).toBe(p.ratio >= 4.5);
  });

  it('warns per pair below AA, light and dark: a dark brand fails on dark surfaces, a light one on light surfaces', () => {
    const navy = valid(brandContrast('#0a2540', THEME_TEXTS, en));
    expect(navy.warnings.some((w) => w.variant === 'default-light')).toBe(false);
    expect(navy.warnings.filter((w) => w.variant === 'default-dark').map((w) => w.surface)).toEqual(['--pl-surface-page', '--pl-surface-card', '--pl-surface-raised']);
    const white = valid(brandContrast('#FFF', THEME_TEXTS, en));
    expect(white.color).toBe('#fff');
    expect(white.warnings.find((w) => w.variant === 'default-light' && w.surface === '--pl-surface-card')).toMatchObject({
      level: 'large',
      message: 'Default theme, light: the brand colour #fff on the card background is 1:1, below 3:1, the WCAG AA minimum for large text and controls.',
    });
    expect(white.warnings.some((w) => w.variant === 'dark')).toBe(false);
    const grey = valid(brandContrast('#777777', THEME_TEXTS, en));
    expect(grey.warnings.find((w) => w.variant === 'default-light' && w.surface === '--pl-surface-card')?.level).toBe('text');
  });

  it('the text the site puts on the brand band is black or white, whichever reads better', () => {
    expect(valid(brandContrast('#ffd54a', THEME_TEXTS, en))).toMatchObject({ onBrand: '#000000' });
    const dark = valid(brandContrast('#0a2540', THEME_TEXTS, en));
    expect(dark.onBrand).toBe('#ffffff');
    expect(dark.onBrandRatio).toBeGreaterThanOrEqual(4.5);
  });

  it('words its warnings in the translator language, numbers formatted for it', () => {
    const de = valid(brandContrast('#777777', THEME_TEXTS, translator('de')));
    const card = de.warnings.find((w) => w.variant === 'default-light' && w.surface === '--pl-surface-card');
    expect(card?.message).toBe('Standardthema, hell: Die Markenfarbe #777777 auf dem Kartenhintergrund hat 4,47:1, weniger als 4,5:1, das WCAG-AA-Minimum für Text.');
    const ar = valid(brandContrast('#777777', THEME_TEXTS, translator('ar')));
    expect(ar.warnings[0]?.message).toContain('لون العلامة');
  });

  it('a value the page would not use is reported, not measured', () => {
    const report = brandContrast('red', THEME_TEXTS, en);
    expect(report).toEqual({ valid: false, message: "The brand colour red is not a hex colour such as #1a7f37: the theme's own colour is used." });
    expect(brandContrast('url(javascript:x)', THEME_TEXTS, translator('fr')).valid).toBe(false);
  });
});
