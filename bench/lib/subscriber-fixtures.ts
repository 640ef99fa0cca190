/**
 * What the subscription benchmarks share (bench/subscriptions.ts, bench/replicas.ts): a loopback
 * SMTP server that counts what it accepts, and confirmed subscribers written straight into a
 * subscriber store.
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { SubscriberStore } from '../../src/subscribers/store.ts';

export interface CountingSmtp {
  port: number;
  /** Messages accepted. */
  count(): number;
  /** Messages accepted per recipient address. */
  perRecipient: Map<string, number>;
  close(): Promise<void>;
}

/** A catch-all SMTP server on loopback that only counts what it accepts. */
export async function countingSmtp(): Promise<CountingSmtp> {
  let received = 0;
  const perRecipient = new Map<string, number>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      stream.on('data', () => undefined);
      stream.on('end', () => {
        received += 1;
        for (const recipient of session.envelope.rcptTo) perRecipient.set(recipient.address, (perRecipient.get(recipient.address) ?? 0) + 1);
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return { port: (server.server.address() as AddressInfo).port, count: () => received, perRecipient, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/**
 * `subscribers` confirmed e-mail subscribers (`subscriber<i>@example.com`) of `pageId`, by
 * `writers` concurrent writers (several help on PostgreSQL; one is enough for SQLite).
 */
export async function seedConfirmedSubscribers(location: Parameters<typeof SubscriberStore.open>[0], pageId: string, subscribers: number, writers = 1): Promise<void> {
  const store = await SubscriberStore.open(location);
  try {
    await Promise.all(
      Array.from({ length: writers }, async (_, writer) => {
        for (let i = writer; i < subscribers; i += writers) {
          const address = `subscriber${i}@example.com`;
          const request = (await store.subscribe(pageId, { address, key: address }, [], Date.now()))!;
          await store.confirm(request.token, Date.now());
        }
      }),
    );
  } finally {
    await store.close();
  }
}
