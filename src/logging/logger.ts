/**
 * Structured log lines (pino): one JSON object per line, with a level, a time and the component
 * that wrote it; human-readable when stdout is a terminal. Shared by the launcher and the site,
 * which run in one process but from two module trees (the source and Astro's bundle), so each
 * makes its own logger with the same settings. `LOG_LEVEL` is validated by the launcher.
 */
import { createRequire } from 'node:module';
import pino, { type Logger } from 'pino';

export type { Logger };

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

function levelFrom(value: string | undefined): LogLevel {
  return LOG_LEVELS.find((level) => level === value?.trim().toLowerCase()) ?? 'info';
}

/**
 * Fields that must never reach a line, whatever a caller passes by mistake: the API key and
 * the push token (it is the secret part of the push URL).
 */
const REDACTED = ['apiKey', 'token', 'webhookUrl', 'authorization', '*.apiKey', '*.token', '*.webhookUrl', '*.authorization'];

let root: Logger | undefined;

function rootLogger(env: NodeJS.ProcessEnv): Logger {
  const options = {
    level: levelFrom(env.LOG_LEVEL),
    base: null,
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: REDACTED, censor: '[redacted]' },
  };
  // Synchronous writes: a line written just before process.exit() is not lost.
  if (process.stdout.isTTY && env.PORCHLIGHT_LOG_STDERR !== '1') {
    // Loaded only for a terminal: a service writing JSON lines does not carry it in every thread.
    const pretty = createRequire(import.meta.url)('pino-pretty') as typeof import('pino-pretty');
    return pino(options, pretty.build({ colorize: true, sync: true, translateTime: 'SYS:HH:MM:ss', singleLine: true, messageFormat: '{component}: {msg}', ignore: 'component' }));
  }
  // The static exporter keeps stdout for its own summary: it sets PORCHLIGHT_LOG_STDERR, which its
  // worker threads inherit with the rest of the environment.
  return pino(options, pino.destination({ dest: env.PORCHLIGHT_LOG_STDERR === '1' ? 2 : 1, sync: true }));
}

/** The logger of one part of Porchlight (`launcher`, `front`, `site`, `api`, `push`), at LOG_LEVEL. */
export function createLogger(component: string, env: NodeJS.ProcessEnv = process.env): Logger {
  root ??= rootLogger(env);
  return root.child({ component });
}

/** The message of anything thrown, never its stack. */
export function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
