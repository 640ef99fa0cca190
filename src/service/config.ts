import { DEFAULT_FAILURE_THRESHOLD } from './engine/health-transition.ts';
import { readSmtpSettings, SmtpSettingsError, type SmtpSettings } from '../contract/smtp.ts';
import { DEFAULT_MAX_BODY_BYTES } from './http/body.ts';
import { DEFAULT_RATE_LIMITS, type RateLimits } from './http/rate-limit.ts';
import { ConfigError } from '../contract/config-error.ts';
import { DatabaseUrlError, parseDatabaseUrl } from '../store/database-url.ts';

/** An environment variable with a value the service cannot use: `new ConfigError(variable, problem)`, the one class the site throws too. */
export { ConfigError };

/** Settings of the monitoring engine and notification delivery, shared by `npm run api` and the launcher. */
export interface EngineConfig {
  scheduler: boolean;
  failureThreshold: number;
  /** Null: no SMTP server, e-mail deliveries are recorded as skipped. */
  smtp: SmtpSettings | null;
  /** ALLOW_PRIVATE_TARGETS; undefined (unset): allowed for the demo organization only, every other one is held to the policy. */
  allowPrivateTargets: boolean | undefined;
}

export interface ServiceConfig extends EngineConfig {
  port: number;
  host: string;
  databasePath: string;
  /** DATABASE_URL: PostgreSQL instead of the SQLite file (checked here without a connection). */
  databaseUrl: string | null;
  seedDemo: boolean;
  rateLimits: RateLimits;
  maxBodyBytes: number;
}

export const DEFAULT_DATABASE_PATH = './data/porchlight.db';

type Env = Readonly<Record<string, string | undefined>>;

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `must be a whole number, got ${JSON.stringify(raw)}`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${value}`);
  return value;
}

function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new ConfigError(name, `must be true or false, got ${JSON.stringify(env[name])}`);
}

function nonEmpty(env: Env, name: string, fallback: string): string {
  const raw = env[name];
  if (raw === undefined) return fallback;
  if (raw.trim() === '') throw new ConfigError(name, 'must not be empty');
  return raw.trim();
}


function optional(env: Env, name: string): string | undefined {
  const raw = env[name]?.trim();
  return raw === undefined || raw === '' ? undefined : raw;
}

/** The shared SMTP_* parser (src/contract/smtp.ts), its errors told as this module's. */
function readSmtp(env: Env): SmtpSettings | null {
  try {
    return readSmtpSettings(env);
  } catch (error) {
    if (error instanceof SmtpSettingsError) throw new ConfigError(error.variable, error.problem);
    throw error;
  }
}

/**
 * The engine's settings: SCHEDULER (true: check monitors on their interval), FAILURE_THRESHOLD (2: failed
 * checks in a row before a monitor is down), ALLOW_PRIVATE_TARGETS (unset: only for the demo organization) and the
 * SMTP_* variables of e-mail notifications.
 */
export function readEngineConfig(env: Env): EngineConfig {
  return {
    scheduler: boolean(env, 'SCHEDULER', true),
    failureThreshold: integer(env, 'FAILURE_THRESHOLD', DEFAULT_FAILURE_THRESHOLD, 1, 100),
    smtp: readSmtp(env),
    allowPrivateTargets: optional(env, 'ALLOW_PRIVATE_TARGETS') === undefined ? undefined : boolean(env, 'ALLOW_PRIVATE_TARGETS', false),
  };
}

export interface LimitsConfig {
  rateLimits: RateLimits;
  maxBodyBytes: number;
}

/**
 * The request limits, shared by `npm run api` and the launcher: RATE_LIMIT_FREE (120),
 * RATE_LIMIT_PRO (600), RATE_LIMIT_WINDOW_SECONDS (60), MAX_BODY_BYTES (1048576).
 */
export function readLimitsConfig(env: Env): LimitsConfig {
  return {
    rateLimits: {
      free: integer(env, 'RATE_LIMIT_FREE', DEFAULT_RATE_LIMITS.free, 1, 1_000_000),
      pro: integer(env, 'RATE_LIMIT_PRO', DEFAULT_RATE_LIMITS.pro, 1, 1_000_000),
      windowSeconds: integer(env, 'RATE_LIMIT_WINDOW_SECONDS', DEFAULT_RATE_LIMITS.windowSeconds, 1, 86_400),
    },
    maxBodyBytes: integer(env, 'MAX_BODY_BYTES', DEFAULT_MAX_BODY_BYTES, 1024, 100 * 1024 * 1024),
  };
}

/** DATABASE_URL when set (its shape checked, its value never repeated), else null. */
export function databaseUrl(env: Env): string | null {
  const raw = env.DATABASE_URL;
  if (raw === undefined || raw.trim() === '') return null;
  try {
    parseDatabaseUrl(raw);
  } catch (error) {
    if (error instanceof DatabaseUrlError) throw new ConfigError('DATABASE_URL', error.message.replace(/^DATABASE_URL /, ''));
    throw error;
  }
  return raw.trim();
}

/**
 * Reads the service's settings (and the engine's and limits', see readEngineConfig and
 * readLimitsConfig): PORT (4322), HOST (127.0.0.1), DATABASE_PATH (./data/porchlight.db), DATABASE_URL
 * (unset: the SQLite file), SEED_DEMO (true).
 */
export function readConfig(env: Env): ServiceConfig {
  return {
    port: integer(env, 'PORT', 4322, 0, 65_535),
    host: nonEmpty(env, 'HOST', '127.0.0.1'),
    databasePath: nonEmpty(env, 'DATABASE_PATH', DEFAULT_DATABASE_PATH),
    databaseUrl: databaseUrl(env),
    seedDemo: boolean(env, 'SEED_DEMO', true),
    ...readLimitsConfig(env),
    ...readEngineConfig(env),
  };
}
