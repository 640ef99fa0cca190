/**
 * One Porchlight process's outbox sender, alone, for the SIGKILL test (test/subscribers/
 * outbox-sigkill.test.ts): opens the subscribers store at PORCHLIGHT_TEST_STORE (a JSON
 * StoreLocation) with a lease of PORCHLIGHT_TEST_LEASE_MS, keeps its leases as the service does,
 * and sends to the SMTP server on 127.0.0.1:PORCHLIGHT_TEST_SMTP_PORT until it is killed.
 * Prints `ready <owner>` once its first lease round is done.
 */
import type { StoreLocation } from '../../../src/store/location.ts';
import { smtpTransport } from '../../../src/subscribers/mail-transport.ts';
import { keepLeases } from '../../../src/subscribers/outbox-leases.ts';
import { OutboxSender } from '../../../src/subscribers/outbox-sender.ts';
import { SubscriberStore } from '../../../src/subscribers/store.ts';

const location = JSON.parse(process.env.PORCHLIGHT_TEST_STORE ?? '') as StoreLocation;
const store = await SubscriberStore.open(location, { leaseMs: Number(process.env.PORCHLIGHT_TEST_LEASE_MS) });
const concurrency = 4;
const transport = smtpTransport({ host: '127.0.0.1', port: Number(process.env.PORCHLIGHT_TEST_SMTP_PORT) }, concurrency);
const sender = new OutboxSender(store, transport, {
  concurrency,
  retryBaseMs: 200,
  retryMaxMs: 1_000,
  maxAttempts: 60,
  maxPerSecond: 0,
  manageUrl: (base, id) => `${base}?s=${id}`,
  messageId: (mail) => `<${mail.eventId}.${mail.subscriberId}@porchlight.test>`,
});
const leases = keepLeases(store, {
  held: () => sender.heldClaims(),
  onReclaimed: () => sender.wake(),
  onError: (error) => console.error('leases:', error),
});
await leases.ready;
// The outbox is also polled: the other process's reclaimed rows become due without telling this one.
setInterval(() => sender.wake(), 100);
sender.wake();
console.log(`ready ${store.owner}`);
