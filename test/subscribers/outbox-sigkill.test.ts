/**
 * Two sender processes on one outbox (a SQLite file, or one PostgreSQL database), one of them
 * killed with SIGKILL mid fan-out while the SMTP server holds its answers: the other finishes the
 * fan-out once the dead one's lease is over, nobody gets the mail twice, and only the mails the
 * dead one had handed over (at most its concurrency, 4) stay `unknown`. Real processes
 * (test/subscribers/support/fanout-process.ts), a real SMTP server on loopback, a short lease.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { StoreLocation } from '../../src/store/location.ts';
import { openDatabase } from '../../src/store/location.ts';
import { readRow } from '../../src/store/rows.ts';
import type { StoredEvent } from '../../src/subscribers/outbox-sender.ts';
import { SubscriberStore } from '../../src/subscribers/store.ts';
import { startSmtpSink, type SmtpSink } from '../e2e/support/smtp-sink.ts';
import { DIALECTS, useDialects } from '../support/postgres.ts';
import { startReadyProcess, until } from '../support/ready-process.ts';

const SUBSCRIBERS = 40;
const LEASE_MS = 1_500;
const dialects = useDialects();
const children: ChildProcess[] = [];
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const event: StoredEvent = {
  defaultLocale: 'en',
  mails: { en: { pageName: 'Acme', subject: 'Database latency', text: 'Investigating.', html: '<p>Investigating.</p>', brandColor: '#0055aa', logoUrl: null, pageUrl: 'https://status.example.com/acme/', locale: 'en', manageBase: 'https://status.example.com/acme/subscribe/manage' } },
};

interface SenderProcess {
  child: ChildProcess;
  /** Its store's owner id (outbox.claimed_by). */
  owner: string;
  exited: Promise<void>;
}

/** A sender process on `place`; resolves once it has done its first lease round. */
async function startSender(place: StoreLocation, smtpPort: number): Promise<SenderProcess> {
  const started = await startReadyProcess('test/subscribers/support/fanout-process.ts', { PORCHLIGHT_TEST_STORE: JSON.stringify(place), PORCHLIGHT_TEST_LEASE_MS: String(LEASE_MS), PORCHLIGHT_TEST_SMTP_PORT: String(smtpPort) }, 'sender', children);
  return { child: started.child, owner: started.ready, exited: started.exited };
}

describe.each(DIALECTS)('the outbox on %s, a sender killed with SIGKILL mid fan-out', (dialect) => {
  it('the other process finishes the fan-out after the lease: nobody mailed twice, only mails handed over by the dead one in doubt', async () => {
    let place: StoreLocation;
    if (dialect === 'sqlite') {
      const dir = mkdtempSync(join(tmpdir(), 'pl-sigkill-'));
      cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
      place = { dialect: 'sqlite', path: join(dir, 'subscribers.db') };
    } else {
      place = dialects.location('postgres');
    }
    const sink: SmtpSink = await startSmtpSink();
    cleanups.push(() => sink.stop());
    // Each mail is kept by the server, then its answer held: a kill lands between the two.
    sink.answerDelayMs = 150;
    const store = await SubscriberStore.open(place);
    cleanups.push(() => store.close());
    for (let i = 0; i < SUBSCRIBERS; i += 1) {
      const email = { address: `s${i}@example.com`, key: `s${i}@example.com` };
      const request = (await store.subscribe('page_1', email, [], Date.now()))!;
      await store.confirm(request.token, Date.now());
    }

    const first = await startSender(place, sink.port);
    expect(await store.recordEvent('page_1', 'incident:1:created', JSON.stringify(event), new Set(['m']), Date.now())).toBe(SUBSCRIBERS);
    await until(() => sink.mails.length >= 8, 'the first mails', 60_000, 25);
    // A second process starts while the first sends: it leaves the first's live claims alone.
    const second = await startSender(place, sink.port);
    await until(() => sink.mails.length >= 14, 'more mails', 60_000, 25);
    expect((await store.stats()).outbox.unknown).toBe(0);
    // Kill the first while it has mails handed over: the server now holds its answers long enough
    // to be sure (5 s: more than three leases, so the second's sends held as long live on renewals;
    // less than the SMTP client's 10 s socket timeout, after which a mail the server kept would be
    // retried: see docs/subscriptions.md).
    sink.answerDelayMs = 5_000;
    const db = await openDatabase(place, 'subscribers');
    cleanups.push(() => db.close());
    await until(async () => (await db.get("SELECT 1 AS found FROM outbox WHERE state = 'sending' AND started_at IS NOT NULL AND claimed_by = ?", first.owner)) !== undefined, 'a mail handed over by the first', 60_000, 25);
    first.child.kill('SIGKILL');
    await first.exited;
    const killedAt = Date.now();
    sink.answerDelayMs = 150;

    await until(async () => {
      const { outbox } = await store.stats();
      return outbox.pending === 0 && outbox.sending === 0;
    }, 'the fan-out to finish', 60_000, 25);
    // Settled by the lease (plus a renewal round and the second's poll), not by a restart.
    expect(Date.now() - killedAt).toBeLessThan(30_000);

    const rows = (await db.all('SELECT s.email, o.state, o.claimed_by FROM outbox o JOIN subscribers s ON s.id = o.subscriber_id')).map((row) => {
      const read = readRow('outbox', row);
      return { email: read.text('email'), state: read.text('state'), claimedBy: read.textOrNull('claimed_by') };
    });
    expect(rows).toHaveLength(SUBSCRIBERS);
    const inDoubt = rows.filter((row) => row.state === 'unknown');
    const sent = rows.filter((row) => row.state === 'sent');
    // Only what the dead process had handed over (its concurrency at most) is in doubt; everything else went out.
    expect(inDoubt.length).toBeGreaterThanOrEqual(1);
    expect(inDoubt.length).toBeLessThanOrEqual(4);
    // Never the second's, whose sends the server held longer than a lease (renewed, they stayed its own).
    for (const row of inDoubt) expect(row.claimedBy).toBe(first.owner);
    expect(sent.length + inDoubt.length).toBe(SUBSCRIBERS);
    // At most once per subscriber, counted at the SMTP server; exactly once for every mail recorded sent.
    for (let i = 0; i < SUBSCRIBERS; i += 1) expect(sink.mailsTo(`s${i}@example.com`).length).toBeLessThanOrEqual(1);
    for (const row of sent) expect(sink.mailsTo(row.email)).toHaveLength(1);
    // The in-doubt ones really were in doubt: the server had taken them, or was taking them, when the sender died.
    expect(sink.mails.length).toBeGreaterThanOrEqual(SUBSCRIBERS - inDoubt.length);

    second.child.kill('SIGTERM');
    await second.exited;
  }, 120_000);
});
