/**
 * The SMTP settings (SMTP_HOST, SMTP_PORT, SMTP_SECURE, SMTP_USER, SMTP_PASSWORD, SMTP_FROM), read
 * by one parser for both of their readers: the embedded API's e-mail notifications and the site's
 * e-mail subscriptions. It sits here because src/contract is the one module both may import.
 */

/** Where e-mail goes out. */
export interface SmtpSettings {
  host: string;
  /** Default 587, or 465 when `secure`. */
  port?: number;
  /** TLS from the first byte (port 465). Otherwise STARTTLS is used when the server offers it. */
  secure?: boolean;
  user?: string;
  password?: string;
  /** Sender address, default `Porchlight <porchlight@localhost>`. */
  from?: string;
}

export const DEFAULT_SMTP_FROM = 'Porchlight <porchlight@localhost>';

/** A bad SMTP_* value; `variable` names it, `problem` says what is wrong. */
export class SmtpSettingsError extends Error {
  override name = 'SmtpSettingsError';
  readonly variable: string;
  readonly problem: string;
  constructor(variable: string, problem: string) {
    super(`${variable}: ${problem}`);
    this.variable = variable;
    this.problem = problem;
  }
}

type Env = Readonly<Record<string, string | undefined>>;

const SMTP_VARIABLES = ['SMTP_PORT', 'SMTP_SECURE', 'SMTP_USER', 'SMTP_PASSWORD', 'SMTP_FROM'] as const;

function optional(env: Env, name: string): string | undefined {
  const raw = env[name]?.trim();
  return raw === undefined || raw === '' ? undefined : raw;
}

function flag(env: Env, name: string): boolean {
  const raw = optional(env, name)?.toLowerCase();
  if (raw === undefined) return false;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new SmtpSettingsError(name, `must be true or false, got ${JSON.stringify(env[name])}`);
}

function port(env: Env, fallback: number): number {
  const raw = optional(env, 'SMTP_PORT');
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw)) throw new SmtpSettingsError('SMTP_PORT', `must be a whole number, got ${JSON.stringify(raw)}`);
  const value = Number(raw);
  if (value < 1 || value > 65_535) throw new SmtpSettingsError('SMTP_PORT', `must be between 1 and 65535, got ${value}`);
  return value;
}

/** SMTP_HOST unset: null (no e-mail), and then no other SMTP_* may be set. */
export function readSmtpSettings(env: Env): SmtpSettings | null {
  const host = optional(env, 'SMTP_HOST');
  if (host === undefined) {
    const stray = SMTP_VARIABLES.find((name) => optional(env, name) !== undefined);
    if (stray) throw new SmtpSettingsError('SMTP_HOST', `must be set when ${stray} is`);
    return null;
  }
  const secure = flag(env, 'SMTP_SECURE');
  const user = optional(env, 'SMTP_USER');
  const password = env.SMTP_PASSWORD;
  if (password !== undefined && password !== '' && user === undefined) throw new SmtpSettingsError('SMTP_USER', 'must be set when SMTP_PASSWORD is');
  const from = optional(env, 'SMTP_FROM');
  if (from !== undefined && /[\r\n]/.test(from)) throw new SmtpSettingsError('SMTP_FROM', 'must be one line');
  return {
    host,
    port: port(env, secure ? 465 : 587),
    secure,
    ...(user !== undefined && { user, password: password ?? '' }),
    ...(from !== undefined && { from }),
  };
}

/** How long one SMTP connection, greeting or socket may stay silent. */
const SMTP_TIMEOUT_MS = 10_000;

/**
 * The connection options of `settings` as nodemailer's createTransport takes them (a plain
 * object, so this module needs no mail library): both senders connect the same way.
 */
export function smtpConnection(settings: SmtpSettings) {
  return {
    host: settings.host,
    port: settings.port ?? (settings.secure ? 465 : 587),
    secure: settings.secure ?? false,
    ...(settings.user !== undefined && { auth: { user: settings.user, pass: settings.password ?? '' } }),
    connectionTimeout: SMTP_TIMEOUT_MS,
    greetingTimeout: SMTP_TIMEOUT_MS,
    socketTimeout: SMTP_TIMEOUT_MS,
  };
}
