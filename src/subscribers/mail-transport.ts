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

function field(error: unknown, name: string): unknown {
  return typeof error === 'object' && error !== null ? Reflect.get(error, name) : undefined;
}

/**
 * What a failure says about the outbox: only a 5xx to RCPT TO is about this address; a 5xx
 * elsewhere (a refused login or sender, a rejected message) is the server's or the
 * configuration's and must never mark subscribers bouncing, so it is retried with backoff.
 */
export function classifyFailure(error: unknown): SendOutcome {
  const code = field(error, 'responseCode');
  const replyCode = typeof code === 'number' ? code : null;
  if (replyCode !== null && replyCode >= 500 && field(error, 'command') === 'RCPT TO') return { outcome: 'permanent' };
  // No reply at all (refused, timed out), 421, or a server-side refusal: the server, not this address.
  return { outcome: 'retry', unreachable: replyCode === null || replyCode === 421 || replyCode >= 500 };
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
            // RFC 3282; a catalog locale such as 'pt-BR', never visitor text.
            ...(/^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$/.test(envelope.mail.language) && { 'Content-Language': envelope.mail.language }),
            ...(envelope.unsubscribeUrl && { 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' }),
          },
        });
        return { outcome: 'sent' };
      } catch (error) {
        return classifyFailure(error);
      }
    },
    close: () => transporter.close(),
  };
}
