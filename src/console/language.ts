/** The operator's language: the first of the browser's Accept-Language the catalogs have, else the site's. */
import { findLocale, type Locale } from '../site/i18n/locales.ts';

export function negotiateLocale(acceptLanguage: string | undefined, fallback: Locale): Locale {
  if (!acceptLanguage) return fallback;
  const wanted = acceptLanguage
    .split(',')
    .slice(0, 20)
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find(Boolean);
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter((entry) => entry.tag !== '' && entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { tag } of wanted) {
    const found = findLocale(tag) ?? findLocale(tag.split('-')[0] ?? '') ?? (tag.toLowerCase().startsWith('pt') ? findLocale('pt-BR') : null) ?? (tag.toLowerCase().startsWith('zh') ? findLocale('zh-CN') : null);
    if (found) return found;
  }
  return fallback;
}
