/**
 * Hands one mail to SMTP (nodemailer, pooled connections) and says what the answer means for
 * the outbox: sent, retry later (the server unreachable, or a 4xx), or permanent (a 5xx).
 * Recipient and sender are checked addresses and every other header value is one line, so no
 * owner or visitor text can add a header.
 */
import { createTransport, type Transporter } from 'nodemailer';
import { DEFAULT_SMTP_FROM, smtpConnection, type SmtpSettings } from '../contract/smtp.ts';
import type { OutgoingMail } from './mail-view.ts';

export type SendOutcome = { outcome: 'sent' } | { outcome: 'retry'; unreachable: boolean } | { outcome: 'permanent' };

export interface Envelope {
  to: string;
  mail: OutgoingMail;
  /** RFC 8058: an https URL that unsubscribes on a POST of `List-Unsubscribe=One-Click`. */
  unsubscribeUrl?: string;
  messageId?: string;
}

export interface MailTransport {
  send(envelope: Envelope): Promise<SendOutcome>;
  close(): void;
}

function responseCode(error: unknown): number | null {
  const code = typeof error === 'object' && error !== null ? Reflect.get(error, 'responseCode') : undefined;
  return typeof code === 'number' ? code : null;
}

export function smtpTransport(settings: SmtpSettings, concurrency: number): MailTransport {
  const transporter: Transporter = createTransport({
    pool: true,
    maxConnections: concurrency,
    maxMessages: 500,
    ...smtpConnection(settings),
  });
  const from = settings.from ?? DEFAULT_SMTP_FROM;
  return {
    async send(envelope) {
      try {
        await transporter.sendMail({
          from,
          to: envelope.to,
          subject: envelope.mail.subject,
          text: envelope.mail.text,
          html: envelope.mail.html,
          ...(envelope.messageId && { messageId: envelope.messageId }),
          ...(envelope.unsubscribeUrl && { list: { unsubscribe: envelope.unsubscribeUrl } }),
          headers: {
            'Auto-Submitted': 'auto-generated',
            ...(envelope.unsubscribeUrl && { 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' }),
          },
        });
        return { outcome: 'sent' };
      } catch (error) {
        const code = responseCode(error);
        if (code !== null && code >= 500) return { outcome: 'permanent' };
        // No reply at all (refused, timed out) or 421: the server, not this address.
        return { outcome: 'retry', unreachable: code === null || code === 421 };
      }
    },
    close: () => transporter.close(),
  };
}
