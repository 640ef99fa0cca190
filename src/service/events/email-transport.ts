import { createTransport, type Transporter } from 'nodemailer';
import { isTimeoutError, knownNetworkMessage, redact } from '../checks/describe-network-error.ts';
import type { AttemptResult } from './attempt-result.ts';
import type { EmailMessage } from './email-message.ts';
import { DEFAULT_SMTP_FROM, smtpConnection, type SmtpSettings } from '../../contract/smtp.ts';

export { DEFAULT_SMTP_FROM, type SmtpSettings } from '../../contract/smtp.ts';

function replyCode(value: unknown): number | null {
  if (typeof value === 'number') return value;
  const match = typeof value === 'string' ? /^(\d{3})\b/.exec(value) : null;
  return match?.[1] !== undefined ? Number(match[1]) : null;
}

/** Addresses of a channel's comma-separated `recipientEmail`. */
export function recipientsOf(recipientEmail: string): string[] {
  return recipientEmail
    .split(',')
    .map((address) => address.trim())
    .filter((address) => address.length > 0);
}

/** Sends notification e-mails over SMTP with nodemailer; without settings every send is skipped. */
export class EmailTransport {
  private readonly transporter: Transporter | null;
  private readonly from: string;
  private readonly secrets: string[];

  constructor(settings: SmtpSettings | null) {
    this.from = settings?.from ?? DEFAULT_SMTP_FROM;
    this.secrets = [settings?.password ?? '', settings?.user ?? ''].filter((secret) => secret.length >= 3);
    this.transporter = settings
      ? createTransport(smtpConnection(settings))
      : null;
  }

  async send(to: readonly string[], message: EmailMessage, headers: Record<string, string>): Promise<AttemptResult> {
    if (!this.transporter) return { outcome: 'skipped', error: 'e-mail is not configured (set SMTP_HOST)' };
    try {
      const info: unknown = await this.transporter.sendMail({ from: this.from, to: [...to], subject: message.subject, text: message.text, headers });
      const response = typeof info === 'object' && info !== null ? Reflect.get(info, 'response') : null;
      return { outcome: 'delivered', statusCode: replyCode(response) };
    } catch (err) {
      const code = typeof err === 'object' && err !== null ? replyCode(Reflect.get(err, 'responseCode')) : null;
      // 5xx replies are permanent (bad recipient, rejected sender); 4xx and network trouble are worth a retry.
      const retryable = code === null || code < 500;
      const error = isTimeoutError(err)
        ? 'SMTP server timed out'
        : (knownNetworkMessage(err) ?? redact(err instanceof Error ? err.message : String(err), this.secrets).slice(0, 300));
      return { outcome: 'failed', statusCode: code, error: `SMTP: ${error}`, retryable };
    }
  }

  close(): void {
    this.transporter?.close();
  }
}
