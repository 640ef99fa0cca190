/**
 * Launcher settings: where the site listens and, when no external API is configured,
 * where the embedded Monitoring and Status Service keeps its store.
 */
import { z } from 'zod';
import { ConfigError, describeIssue, languageSettings, parseSiteEnv, presentVariables, type SiteEnv } from '../site/config.ts';
import type { LanguageSettings } from '../site/i18n/settings.ts';
import { LOG_LEVELS } from '../logging/logger.ts';
import { PUSH_TOKEN_PATTERN } from './push/push-token.ts';
import { DatabaseUrlError, parseDatabaseUrl } from '../store/database-url.ts';
import { parseCidr } from '../audiences/cidr.ts';

const portNumber = z.coerce
  .number({ error: 'must be a port number' })
  .int('must be a port number')
  .min(0, 'must be a port number from 0 to 65535')
  .max(65_535, 'must be a port number from 0 to 65535');

const port = (fallback: number) => portNumber.default(fallback);

const flag = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0'], { error: 'must be true or false' })
    .transform((value) => value === 'true' || value === '1')
    .default(fallback);

const launcherEnvSchema = z.object({
  PORT: port(4321),
  HOST: z.string().trim().min(1).default('127.0.0.1'),
  API_PORT: port(4322),
  DATABASE_PATH: z.string().trim().min(1).default('./data/porchlight.db'),
  SEED_DEMO: flag(true),
  PAGE_CACHE_SECONDS: z.coerce
    .number({ error: 'must be a number of seconds' })
    .int('must be a whole number of seconds')
    .min(0, 'must be 0 or more')
    .max(300, 'must be at most 300')
    .default(5),
  /** Unset: no metrics server. */
  METRICS_PORT: portNumber.optional(),
  LOG_LEVEL: z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` }).default('info'),
  /** Push updates from the API (see README): on by default where they can work. */
  PUSH_UPDATES: flag(true),
  PUSH_TOKEN: z.string().trim().regex(PUSH_TOKEN_PATTERN, 'must be 32 to 128 letters, digits, - or _').optional(),
  /** E-mail subscriptions; unset: on when SMTP is configured (or for the embedded demo). */
  SUBSCRIPTIONS: z
    .enum(['true', 'false', '1', '0'], { error: 'must be true or false' })
    .transform((value) => value === 'true' || value === '1')
    .optional(),
  SUBSCRIBERS_DB: z.string().trim().min(1).default('./data/subscribers.db'),
  /** The audiences store of pages with an audience (docs/private-pages.md), unless DATABASE_URL is set. */
  AUDIENCES_DB: z.string().trim().min(1).default('./data/audiences.db'),
  /**
   * Proxies whose X-Forwarded-For is believed (comma-separated addresses or CIDR ranges), for the
   * address ranges of pages with an audience and their sign-in throttle; empty: none is.
   */
  TRUSTED_PROXIES: z
    .string()
    .default('')
    .transform((value, ctx) => {
      const ranges = value.split(',').map((range) => range.trim()).filter(Boolean);
      for (const range of ranges) {
        try {
          parseCidr(range);
        } catch (error) {
          ctx.addIssue({ code: 'custom', message: error instanceof Error ? error.message : String(error) });
          return z.NEVER;
        }
      }
      return ranges;
    }),
  /**
   * PostgreSQL for the subscribers' store (instead of SUBSCRIBERS_DB). Checked here without a
   * connection; never logged (it may carry a password).
   */
  DATABASE_URL: z.string().trim().min(1).optional(),
  /** Pace of subscription mails (0: as fast as the SMTP server takes them). */
  SUBSCRIPTION_MAILS_PER_SECOND: z.coerce
    .number({ error: 'must be a whole number' })
    .int('must be a whole number')
    .min(0, 'must be 0 or more')
    .max(100_000, 'must be at most 100000')
    .default(50),
  /** Also mail subscribers when a monitor goes down with no incident about it. */
  SUBSCRIPTION_MONITOR_DOWN: flag(false),
  /** Webhook subscriptions may reach loopback and private addresses, over http:// too (tests, a closed network). */
  SUBSCRIPTION_WEBHOOK_ALLOW_PRIVATE: flag(false),
  /** The operators' console (/_porchlight/console/); unset: on for the embedded demo only. */
  CONSOLE: z
    .enum(['true', 'false', '1', '0'], { error: 'must be true or false' })
    .transform((value) => value === 'true' || value === '1')
    .optional(),
  /** The console over plain HTTP from other machines than this one (a closed network): off by default. */
  CONSOLE_ALLOW_HTTP: flag(false),
  /** Where the console and the CLI find incident templates. */
  TEMPLATES_DIR: z.string().trim().min(1).default('./templates'),
  /** Where the demo's catch-all SMTP server writes the mails it receives. */
  DEMO_MAIL_DIR: z.string().trim().min(1).default('./data/mail'),
})
  .superRefine((env, ctx) => {
    if (env.DATABASE_URL !== undefined) {
      try {
        parseDatabaseUrl(env.DATABASE_URL);
      } catch (error) {
        if (!(error instanceof DatabaseUrlError)) throw error;
        ctx.addIssue({ code: 'custom', path: ['DATABASE_URL'], message: error.message.replace(/^DATABASE_URL /, '') });
      }
    }
    if (env.METRICS_PORT !== undefined && env.METRICS_PORT !== 0 && env.METRICS_PORT === env.PORT) {
      ctx.addIssue({ code: 'custom', path: ['METRICS_PORT'], message: 'must differ from PORT: metrics are never served on the public port' });
    }
  });

export type LauncherEnv = z.output<typeof launcherEnvSchema>;

/** Everything start-up reads from the environment, parsed once and handed on as plain data. */
export interface LauncherConfig {
  launcher: LauncherEnv;
  site: SiteEnv;
  /** The site's languages and time zones, defaults filled in (for the site and the subscriptions' mails). */
  languages: LanguageSettings;
}

/** Throws ConfigError with one line naming the first bad variable. */
export function loadLauncherConfig(env: NodeJS.ProcessEnv): LauncherConfig {
  const site = parseSiteEnv(env);
  const result = launcherEnvSchema.safeParse(presentVariables(env));
  if (!result.success) {
    throw new ConfigError(result.error.issues.map(describeIssue)[0] ?? 'invalid configuration');
  }
  return { launcher: result.data, site, languages: languageSettings(site) };
}
