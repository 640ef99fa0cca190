/**
 * The site's settings, read from the environment once and validated with zod, on the launcher's
 * configuration thread (server/threads/config-worker.ts): a bad value stops start-up with one
 * line naming the variable. The running site is handed the result as data (running-config.ts).
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import {
  DEFAULT_LANGUAGE_SETTINGS,
  localeListSetting,
  localeSetting,
  pageLocalesSetting,
  pageTimeZonesSetting,
  timeZoneSetting,
  type LanguageSettings,
} from './i18n/settings.ts';
import { ConfigError } from './config-error.ts';

export const THEMES = ['default', 'dark', 'high-contrast'] as const;
export type ThemeName = (typeof THEMES)[number];

const apiUrl = z
  .url({ protocol: /^https?$/, error: 'must be an http(s) URL such as https://status.example.com/api/v1' })
  .transform((value) => value.replace(/\/+$/, ''))
  .refine((value) => value.endsWith('/api/v1'), 'must end in /api/v1');

/** Origin (scheme, host, optional port) at which visitors reach the site's main host. */
const publicUrl = z
  .url({ protocol: /^https?$/, error: 'must be an http(s) URL such as https://status.example.com' })
  .transform((value) => new URL(value))
  .refine((url) => (url.pathname === '/' || url.pathname === '') && !url.search && !url.hash && !url.username && !url.password, 'must be an origin only, such as https://status.example.com (no path, query or credentials)')
  .transform((url) => url.origin);

/**
 * Font files the status card may fall back to for characters DejaVu lacks (CJK above all):
 * absolute paths of TrueType or OpenType files (or collections), comma-separated. Checked at
 * start, so a typo stops the launch instead of drawing empty boxes on every card.
 */
const fontFileList = z
  .string()
  .transform((value) => value.split(',').map((file) => file.trim()).filter(Boolean))
  .superRefine((files, ctx) => {
    for (const file of files) {
      if (!path.isAbsolute(file)) ctx.addIssue({ code: 'custom', message: `must list absolute paths (${file} is not)` });
      else if (!/\.(ttf|otf|ttc)$/i.test(file)) ctx.addIssue({ code: 'custom', message: `must list .ttf, .otf or .ttc files (${file} is not)` });
      else if (!existsSync(file) || !statSync(file).isFile()) ctx.addIssue({ code: 'custom', message: `lists ${file}, which is not a file` });
    }
  });

const seconds = (fallback: number) =>
  z.coerce.number({ error: 'must be a whole number of seconds' }).int('must be a whole number of seconds').default(fallback);

const siteEnvSchema = z
  .object({
    STATUS_API_URL: apiUrl.optional(),
    STATUS_API_KEY: z.string().trim().min(1, 'must not be empty').optional(),
    SITE_THEME: z.enum(THEMES, { error: `must be one of ${THEMES.join(', ')}` }).default('default'),
    API_TIMEOUT_SECONDS: seconds(5).pipe(z.number().min(1, 'must be at least 1').max(60, 'must be at most 60')),
    CACHE_FRESH_SECONDS: seconds(30).pipe(z.number().min(1, 'must be at least 1').max(3600, 'must be at most 3600')),
    CACHE_MAX_STALE_SECONDS: seconds(86_400),
    PUSH_POLL_SECONDS: seconds(300).pipe(z.number().min(1, 'must be at least 1').max(86_400, 'must be at most 86400')),
    HISTORY_BACKFILL_PAGES: z.coerce.number({ error: 'must be a whole number' }).int('must be a whole number').min(0).max(1000).default(20),
    CACHE_DIR: z.string().trim().min(1).default('./data/cache'),
    SITE_PUBLIC_URL: publicUrl.optional(),
    SITE_LOCALE: localeSetting.optional(),
    SITE_LOCALES: localeListSetting.optional(),
    PAGE_LOCALES: pageLocalesSetting.optional(),
    SITE_TIME_ZONE: timeZoneSetting.optional(),
    PAGE_TIME_ZONES: pageTimeZonesSetting.optional(),
    CARD_FONT_FILES: fontFileList.optional(),
  })
  .superRefine((env, ctx) => {
    if (env.CACHE_MAX_STALE_SECONDS < env.CACHE_FRESH_SECONDS) {
      ctx.addIssue({ code: 'custom', path: ['CACHE_MAX_STALE_SECONDS'], message: 'must be at least CACHE_FRESH_SECONDS' });
    }
    if (env.STATUS_API_URL && !env.STATUS_API_KEY) {
      ctx.addIssue({ code: 'custom', path: ['STATUS_API_KEY'], message: 'is required when STATUS_API_URL is set' });
    }
    // A page's default language is always offered: it is the one at the page's own address.
    const offered = env.SITE_LOCALES;
    if (offered && env.SITE_LOCALE && !offered.includes(env.SITE_LOCALE)) {
      ctx.addIssue({ code: 'custom', path: ['SITE_LOCALES'], message: `must include SITE_LOCALE (${env.SITE_LOCALE})` });
    }
    for (const [slug, locale] of env.PAGE_LOCALES ?? []) {
      if (offered && !offered.includes(locale)) ctx.addIssue({ code: 'custom', path: ['PAGE_LOCALES'], message: `gives ${slug} ${locale}, which SITE_LOCALES does not list` });
    }
  });

/** The language settings of a parsed environment, defaults filled in. */
export function languageSettings(env: SiteEnv): LanguageSettings {
  const siteLocale = env.SITE_LOCALE ?? DEFAULT_LANGUAGE_SETTINGS.siteLocale;
  const listed = env.SITE_LOCALES ?? DEFAULT_LANGUAGE_SETTINGS.siteLocales;
  return {
    siteLocale,
    siteLocales: listed.includes(siteLocale) ? listed : [siteLocale, ...listed],
    pageLocales: env.PAGE_LOCALES ?? DEFAULT_LANGUAGE_SETTINGS.pageLocales,
    siteTimeZone: env.SITE_TIME_ZONE ?? DEFAULT_LANGUAGE_SETTINGS.siteTimeZone,
    pageTimeZones: env.PAGE_TIME_ZONES ?? DEFAULT_LANGUAGE_SETTINGS.pageTimeZones,
  };
}

export { ConfigError } from './config-error.ts';

/** Empty strings count as unset, as shells and .env files often leave them. */
export function presentVariables(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => Boolean(entry[1])));
}

/** One line naming the variable, e.g. `STATUS_API_URL must end in /api/v1`. */
export function describeIssue(issue: z.core.$ZodIssue): string {
  const variable = issue.path.map(String).join('.') || 'configuration';
  return `${variable} ${issue.message}`;
}

export type SiteEnv = z.output<typeof siteEnvSchema>;

export function parseSiteEnv(env: NodeJS.ProcessEnv): SiteEnv {
  const result = siteEnvSchema.safeParse(presentVariables(env));
  if (!result.success) {
    throw new ConfigError(result.error.issues.map(describeIssue)[0] ?? 'invalid configuration');
  }
  return result.data;
}
