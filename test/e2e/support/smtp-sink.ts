/**
 * A real SMTP server on loopback (smtp-server) that keeps every message it accepts, parsed with
 * mailparser, for the subscription tests. It can refuse chosen recipients with a 5xx, answer
 * 4xx for a while, and stop and start again on the same port (an SMTP outage).
 */
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string;
  parsed: ParsedMail;
  raw: string;
}

export interface SmtpSink {
  port: number;
  mails: ReceivedMail[];
  /** Recipients answered `550` (permanent). */
  reject: Set<string>;
  /** While true, every recipient is answered `451` (temporary). */
  busy: boolean;
  /**
   * How long the final `250` is held after a message is kept (default 0): a sender killed in
   * that window crashed between the server taking the mail and its answer.
   */
  answerDelayMs: number;
  mailsTo(address: string): ReceivedMail[];
  stop(): Promise<void>;
  start(): Promise<void>;
}

export async function startSmtpSink(port = 0): Promise<SmtpSink> {
  const mails: ReceivedMail[] = [];
  const reject = new Set<string>();
  let server: SMTPServer | null = null;
  const sink: SmtpSink = {
    port,
    mails,
    reject,
    busy: false,
    answerDelayMs: 0,
    mailsTo: (address) => mails.filter((mail) => mail.to === address.toLowerCase()),
    async start() {
      server = new SMTPServer({
        authOptional: true,
        disabledCommands: ['STARTTLS', 'AUTH'],
        logger: false,
        // An outage is abrupt: open connections are cut at once.
        closeTimeout: 100,
        onRcptTo(address, _session, callback) {
          if (sink.busy) return callback(Object.assign(new Error('Try again later'), { responseCode: 451 }));
          if (reject.has(address.address.toLowerCase())) return callback(Object.assign(new Error('No such user'), { responseCode: 550 }));
          callback();
        },
        onData(stream, session, callback) {
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => {
            const raw = Buffer.concat(chunks);
            simpleParser(raw).then(
              (parsed) => {
                for (const rcpt of session.envelope.rcptTo) mails.push({ to: rcpt.address.toLowerCase(), parsed, raw: raw.toString('utf8') });
                if (sink.answerDelayMs > 0) setTimeout(() => callback(), sink.answerDelayMs);
                else callback();
              },
              (error: Error) => callback(error),
            );
          });
        },
      });
      // A client that dies mid-session (a sender killed with SIGKILL) resets its connection: not the sink's failure.
      server.on('error', (error: NodeJS.ErrnoException) => {
        if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') throw error;
      });
      await new Promise<void>((resolve, reject_) => {
        server!.once('error', reject_);
        server!.listen(sink.port, '127.0.0.1', () => resolve());
      });
      sink.port = (server.server.address() as AddressInfo).port;
    },
    async stop() {
      const current = server;
      server = null;
      if (current) await new Promise<void>((resolve) => current.close(() => resolve()));
    },
  };
  await sink.start();
  return sink;
}

/** The first http(s) link in a mail's text part that contains `part`. */
export function linkIn(mail: ReceivedMail, part: string): string {
  const links = (mail.parsed.text ?? '').match(/https?:\/\/\S+/g) ?? [];
  const link = links.find((candidate) => candidate.includes(part));
  if (!link) throw new Error(`no link with ${part} in: ${mail.parsed.text ?? ''}`);
  return link;
}
