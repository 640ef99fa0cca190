/**
 * Reads the theme files and measures every colour pair the components paint, so contrast is
 * proven rather than eyeballed. `node themes/contrast.ts` prints the table kept in README.md;
 * test/site/components/contrast.test.ts fails the build when a pair drops below its minimum.
 */
import { readFileSync } from 'node:fs';

type Declarations = Map<string, string>;

/** Declarations of every rule block, keyed by its selector (prefixed by any enclosing @media). */
export function parseBlocks(css: string): Map<string, Declarations> {
  const blocks = new Map<string, Declarations>();
  const stack: string[] = [];
  let buffer = '';
  for (const char of css.replace(/\/\*[\s\S]*?\*\//g, '')) {
    if (char === '{') {
      stack.push(buffer.trim().replace(/\s+/g, ' '));
      buffer = '';
    } else if (char === '}' || char === ';') {
      const declaration = /^\s*(--[\w-]+|color-scheme)\s*:\s*([\s\S]+?)\s*$/.exec(buffer);
      if (declaration && stack.length > 0) {
        const key = stack.join(' > ');
        const declarations = blocks.get(key) ?? new Map<string, string>();
        declarations.set(declaration[1] ?? '', declaration[2] ?? '');
        blocks.set(key, declarations);
      }
      buffer = '';
      if (char === '}') stack.pop();
    } else {
      buffer += char;
    }
  }
  return blocks;
}

const DARK = '@media (prefers-color-scheme: dark)';

/** The text of the three theme files, as the stylesheet embeds them. */
export interface ThemeTexts {
  default: string;
  dark: string;
  highContrast: string;
}

function themeFile(name: string): string {
  return readFileSync(new URL(`./${name}.css`, import.meta.url), 'utf8');
}

function block(blocks: Map<string, Declarations>, key: string): Declarations {
  const found = blocks.get(key);
  if (!found) throw new Error(`theme block not found: ${key}`);
  return found;
}

/** Each variant a visitor can see: the shared :root tokens with the theme's colours laid over. */
export function themeVariants(): Map<string, Declarations> {
  return themeVariantsOf({ default: themeFile('default'), dark: themeFile('dark'), highContrast: themeFile('high-contrast') });
}

/**
 * The same variants from the themes' text (pure: the site's theming engine hands in the text the
 * stylesheet embeds, src/site/styles/theme-sources.ts, where no file system path is known).
 */
export function themeVariantsOf(texts: ThemeTexts): Map<string, Declarations> {
  const base = parseBlocks(texts.default);
  const dark = parseBlocks(texts.dark);
  const contrast = parseBlocks(texts.highContrast);
  const root = block(base, ':root');
  const over = (...layers: Declarations[]) => new Map([...root, ...layers.flatMap((layer) => [...layer])]);
  const highContrast = block(contrast, ":root[data-theme='high-contrast']");
  return new Map([
    ['default (light)', over()],
    ['default (dark)', over(block(base, `${DARK} > :root:not([data-theme]), :root[data-theme='default']`))],
    ['dark', over(block(dark, ":root[data-theme='dark']"))],
    ['high-contrast (light)', over(highContrast)],
    ['high-contrast (dark)', over(highContrast, block(contrast, `${DARK} > :root[data-theme='high-contrast']`))],
  ]);
}

function channel(value: number): number {
  const c = value / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

function luminance(hex: string): number {
  const match = /^#([0-9a-f]{6}|[0-9a-f]{3})$/i.exec(hex.trim());
  if (!match?.[1]) throw new Error(`not a hex colour: ${hex}`);
  const digits = match[1].length === 3 ? [...match[1]].map((d) => d + d).join('') : match[1];
  const [r, g, b] = [0, 2, 4].map((i) => channel(Number.parseInt(digits.slice(i, i + 2), 16)));
  return 0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (b ?? 0);
}

/** WCAG 2 contrast ratio of two hex colours. */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return ((light ?? 0) + 0.05) / ((dark ?? 0) + 0.05);
}

export const STATUSES = ['operational', 'degraded', 'partial-outage', 'major-outage', 'maintenance', 'unknown'] as const;

export interface Pair {
  foreground: string;
  background: string;
  kind: 'text' | 'indicator';
}

/** Every foreground/background pairing the stylesheet actually uses. */
export function pairs(): Pair[] {
  const text = (foreground: string, background: string): Pair => ({ foreground, background, kind: 'text' });
  const indicator = (foreground: string, background: string): Pair => ({ foreground, background, kind: 'indicator' });
  const surfaces = ['--pl-surface-page', '--pl-surface-card', '--pl-surface-raised'];
  return [
    ...['--pl-text', '--pl-text-muted', '--pl-link'].flatMap((fg) => surfaces.map((bg) => text(fg, bg))),
    text('--pl-on-brand', '--pl-brand'),
    ...STATUSES.flatMap((status) => {
      const fg = `--pl-status-${status}`;
      const subtle = `${fg}-subtle`;
      return [
        text(fg, subtle),
        text(fg, '--pl-surface-card'),
        text(fg, '--pl-surface-page'),
        text('--pl-text', subtle),
        text('--pl-text-muted', subtle),
        text('--pl-on-status', fg),
        indicator(fg, '--pl-surface-card'),
      ];
    }),
    indicator('--pl-focus-color', '--pl-surface-page'),
    indicator('--pl-focus-color', '--pl-surface-card'),
    indicator('--pl-chart-line', '--pl-surface-card'),
  ];
}

/** AA for the standard themes; high contrast aims at AAA for text and 4.5:1 for indicators. */
export function minimumFor(variant: string, kind: Pair['kind']): number {
  const high = variant.startsWith('high-contrast');
  if (kind === 'text') return high ? 7 : 4.5;
  return high ? 4.5 : 3;
}

export interface Measurement extends Pair {
  variant: string;
  ratio: number;
  minimum: number;
}

export function measureAll(): Measurement[] {
  const results: Measurement[] = [];
  for (const [variant, tokens] of themeVariants()) {
    for (const pair of pairs()) {
      const fg = tokens.get(pair.foreground);
      const bg = tokens.get(pair.background);
      if (!fg || !bg) throw new Error(`${variant}: ${pair.foreground} or ${pair.background} is not set`);
      results.push({ ...pair, variant, ratio: contrastRatio(fg, bg), minimum: minimumFor(variant, pair.kind) });
    }
  }
  return results;
}

/** Markdown table: one row per pair, one column per theme variant. */
export function contrastTable(): string {
  const all = measureAll();
  const variants = [...new Set(all.map((m) => m.variant))];
  const rows = pairs().map((pair) => {
    const cells = variants.map((variant) => {
      const m = all.find((x) => x.variant === variant && x.foreground === pair.foreground && x.background === pair.background);
      return m ? m.ratio.toFixed(2) : '';
    });
    return `| \`${pair.foreground}\` on \`${pair.background}\` | ${pair.kind} | ${cells.join(' | ')} |`;
  });
  return [`| Pair | Kind | ${variants.join(' | ')} |`, `|---|---|${variants.map(() => '---:').join('|')}|`, ...rows].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(contrastTable());
  const failures = measureAll().filter((m) => m.ratio < m.minimum);
  for (const f of failures) console.log(`FAIL ${f.variant}: ${f.foreground} on ${f.background} = ${f.ratio.toFixed(2)} < ${f.minimum}`);
}
