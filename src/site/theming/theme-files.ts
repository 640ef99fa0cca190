/**
 * The theme files' text read from disk, for callers outside the Astro build: the console runs on
 * the launcher's thread (plain Node, or its rolldown bundle in dist/threads/), where the site
 * stylesheet's `?inline` imports (styles/theme-sources.ts) do not exist. Same files, same parser
 * (themes/contrast.ts), so the contrast the console shows is the contrast visitors get.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ThemeTexts } from '../../../themes/contrast.ts';

/** themes/ beside this source file's repository, else under the working directory (a bundle's). */
export function defaultThemesDir(): string {
  const besideSource = fileURLToPath(new URL('../../../themes/', import.meta.url));
  return existsSync(path.join(besideSource, 'default.css')) ? besideSource : path.resolve('themes');
}

export function readThemeTexts(dir: string = defaultThemesDir()): ThemeTexts {
  const read = (name: string) => readFileSync(path.join(dir, `${name}.css`), 'utf8');
  return { default: read('default'), dark: read('dark'), highContrast: read('high-contrast') };
}
