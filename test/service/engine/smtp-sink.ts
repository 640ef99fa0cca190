import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  event: string;
  text: string;
}

export interface SmtpSink {
  port: number;
  mails: ReceivedMail[];
  /** Reply to DATA with this SMTP code instead of accepting (e.g. 451 to test retries); null accepts. */
  rejectWith: number | null;
  close(): Promise<void>;
}

function header(raw: string, name: string): string {
  const head = raw.split(/\r?\n\r?\n/)[0] ?? '';
  const match = new RegExp(`^${name}:[ \\t]*(.*(?:\\r?\\n[ \\t].*)*)`, 'im').exec(head);
  return (match?.[1] ?? '').replace(/\r?\n[ \t]/g, ' ').trim();
}

/** A real SMTP server on loopback (no TLS, no auth) that keeps every message it accepts. */
export async function startSmtpSink(): Promise<SmtpSink> {
  const state: { rejectWith: number | null } = { rejectWith: null };
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (state.rejectWith !== null) {
          const error = Object.assign(new Error('try again later'), { responseCode: state.rejectWith });
          callback(error);
          return;
        }
        const raw = Buffer.concat(chunks).toString('utf8');
        const from = session.envelope.mailFrom;
        mails.push({
          from: from ? from.address : '',
          to: session.envelope.rcptTo.map((address) => address.address),
          subject: header(raw, 'Subject'),
          event: header(raw, 'X-Porchlight-Event'),
          text: raw.split(/\r?\n\r?\n/).slice(1).join('\n\n'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.server.address() as AddressInfo;
  return {
    port,
    mails,
    get rejectWith() {
      return state.rejectWith;
    },
    set rejectWith(code: number | null) {
      state.rejectWith = code;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
