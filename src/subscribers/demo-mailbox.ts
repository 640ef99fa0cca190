/**
 * The demo's catch-all SMTP server: listens on loopback, accepts every message for every
 * address and writes it as a .eml file, so a fresh clone shows the whole subscription flow
 * without a mail server. Never used with a configured SMTP_HOST.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface DemoMailbox {
  port: number;
  folder: string;
  close(): Promise<void>;
}

const MAX_MESSAGE_BYTES = 1024 * 1024;

export async function startDemoMailbox(folder: string): Promise<DemoMailbox> {
  const absolute = resolve(folder);
  mkdirSync(absolute, { recursive: true, mode: 0o700 });
  let count = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    size: MAX_MESSAGE_BYTES,
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        count += 1;
        const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${String(count).padStart(4, '0')}.eml`;
        writeFileSync(join(absolute, name), Buffer.concat(chunks), { mode: 0o600 });
        callback();
      });
    },
  });
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => done());
  });
  const { port } = server.server.address() as AddressInfo;
  return { port, folder: absolute, close: () => new Promise((done) => server.close(() => done())) };
}
