/**
 * Whether e-mail subscriptions run, and how: with the configured SMTP server, or (the demo: the
 * embedded API with its demo data and no SMTP configured) with a local catch-all SMTP server
 * that writes the mails to a folder. SUBSCRIPTIONS=false turns them off; on, links in mails
 * need SITE_PUBLIC_URL, except in the demo, which links to its own local address.
 */
import { readSmtpSettings, SmtpSettingsError, type SmtpSettings } from '../../contract/smtp.ts';
import { ConfigError } from '../../site/config-error.ts';
import type { LauncherConfig } from '../config.ts';

export type SubscriptionPlan =
  | { mode: 'off' }
  | { mode: 'smtp'; smtp: SmtpSettings; publicUrl: string }
  | { mode: 'demo'; mailDir: string };

export function planSubscriptions(config: LauncherConfig, env: Readonly<Record<string, string | undefined>>): SubscriptionPlan {
  const wanted = config.launcher.SUBSCRIPTIONS;
  if (wanted === false) return { mode: 'off' };
  let smtp: SmtpSettings | null;
  try {
    smtp = readSmtpSettings(env);
  } catch (error) {
    throw error instanceof SmtpSettingsError ? new ConfigError(`${error.variable} ${error.problem}`) : error;
  }
  if (smtp) {
    const publicUrl = config.site.SITE_PUBLIC_URL;
    if (!publicUrl) throw new ConfigError('SITE_PUBLIC_URL is required for e-mail subscriptions (the links in their e-mails); set it, or SUBSCRIPTIONS=false');
    return { mode: 'smtp', smtp, publicUrl };
  }
  const demo = !config.site.STATUS_API_URL && config.launcher.SEED_DEMO;
  if (demo) return { mode: 'demo', mailDir: config.launcher.DEMO_MAIL_DIR };
  if (wanted === true) throw new ConfigError('SUBSCRIPTIONS=true needs an SMTP server: set SMTP_HOST (and SMTP_PORT, SMTP_FROM ...)');
  return { mode: 'off' };
}
