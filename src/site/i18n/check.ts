/**
 * The catalog check: every way a language's catalog can disagree with English, as sentences a
 * contributor can act on ("de: missing key 'page.title' (English: '{name}: {status}')"). The unit
 * test fails on any, and `npm run check:i18n` prints them.
 */
import type { PluralForms } from './catalog.ts';
import { en } from './messages/en.ts';
import { LOCALES, SHIPPED_LOCALES, type Locale } from './locales.ts';

type Entry = string | PluralForms;

const placeholders = (text: string): Set<string> => new Set([...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1] ?? ''));
const english: Record<string, Entry> = en;

function sameSet(a: Set<string>, b: Set<string>): boolean {
  return a.size === b.size && [...a].every((item) => b.has(item));
}

const listed = (items: Iterable<string>) => [...items].map((item) => `{${item}}`).join(', ') || 'none';

export function catalogProblems(locale: Locale): string[] {
  const catalog: Record<string, Entry> = LOCALES[locale].catalog;
  const problems: string[] = [];
  const categories = new Set<string>(new Intl.PluralRules(LOCALES[locale].intl).resolvedOptions().pluralCategories);
  for (const [key, source] of Object.entries(english)) {
    const target = catalog[key];
    if (target === undefined) {
      problems.push(`${locale}: missing key '${key}' (English: ${JSON.stringify(source)})`);
      continue;
    }
    if (typeof source === 'string') {
      if (typeof target !== 'string') {
        problems.push(`${locale}: '${key}' must be a text, not plural forms`);
      } else if (!sameSet(placeholders(source), placeholders(target))) {
        problems.push(`${locale}: '${key}' has placeholders ${listed(placeholders(target))}; English has ${listed(placeholders(source))}`);
      }
      continue;
    }
    if (typeof target === 'string') {
      problems.push(`${locale}: '${key}' must be plural forms (${[...categories].join(', ')}), not a text`);
      continue;
    }
    const allowed = placeholders(source.other);
    for (const category of categories) {
      if (!(category in target)) problems.push(`${locale}: '${key}' lacks the plural form '${category}' (${LOCALES[locale].intl} uses ${[...categories].join(', ')})`);
    }
    for (const [category, text] of Object.entries(target)) {
      if (!categories.has(category)) problems.push(`${locale}: '${key}' has the form '${category}', which ${LOCALES[locale].intl} never uses`);
      const extra = [...placeholders(text ?? '')].filter((name) => !allowed.has(name));
      if (extra.length > 0) problems.push(`${locale}: '${key}' (${category}) has unknown placeholders ${listed(extra)}`);
    }
    if (!placeholders(target.other).has('count')) problems.push(`${locale}: '${key}' (other) must show {count}`);
  }
  for (const key of Object.keys(catalog)) {
    if (!(key in english)) problems.push(`${locale}: extra key '${key}' (not in English: remove or rename it)`);
  }
  return problems;
}

export function allCatalogProblems(): string[] {
  return SHIPPED_LOCALES.flatMap(catalogProblems);
}
