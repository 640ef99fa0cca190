/**
 * Three `npm start` replicas (each with its embedded API) behind nginx on one PostgreSQL, under a
 * steady load of the status page and its JSON through the balancer; one replica killed with
 * SIGKILL in the middle of an incident's fan-out: no request fails at the balancer, the other
 * replicas go on mailing, no address is mailed twice (counted at a real SMTP server), the checks
 * the killed one had claimed are run by the others within an interval, and the API (through its
 * own nginx) takes writes. Real processes on loopback (test/support/replicas.ts).
 */
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replicaTestsRun, startReplicaSet, steadyLoad, until, type ReplicaSet } from '../support/replicas.ts';
import { apiWrite, checkClaims, createIncident, demoPage, heldBy, mailsAbout, seedSubscribers } from './support.ts';

/** The checks the test follows across the kill: the short ones (the demo's 30 s monitors). */
const SHORT_INTERVAL_SECONDS = 60;

const SUBSCRIBERS = 240;

describe.runIf(replicaTestsRun())('three replicas, one killed with SIGKILL under load', () => {
  let set: ReplicaSet;
  beforeAll(async () => {
    // A slow pace per replica (the fan-out takes ~16 s at three), so it is still running when the kill comes.
    set = await startReplicaSet({ replicas: 3, env: { SUBSCRIPTION_MAILS_PER_SECOND: '5' } });
  }, 120_000);
  afterAll(async () => set?.close(), 60_000);

  /** How many processes have claimed outbox rows so far. */
  async function senders(): Promise<number> {
    const sql = postgres(set.databaseUrl, { max: 1, onnotice: () => undefined });
    try {
      const [row] = await sql`SELECT COUNT(DISTINCT claimed_by)::int AS n FROM subscribers.outbox WHERE claimed_by IS NOT NULL`;
      return Number(row?.n);
    } finally {
      await sql.end({ timeout: 5 });
    }
  }

  it('serves every request and keeps mailing, nobody twice', async () => {
    const page = await demoPage(set.api);
    await seedSubscribers(set.databaseUrl, page.id, SUBSCRIBERS);
    const load = steadyLoad(set.url, ['/acme', '/acme/api/v2/summary.json', '/acme/api/v2/status.json'], 4);
    try {
      await until(() => load.tally.ok >= 20, 'the load to run');
      // Every replica's scheduler claims checks; the victim (not the first, whose API key the test
      // reads) must hold short ones when it dies. Chosen before the incident: the wait can be long
      // (which replica wins a check's turn is a race), the fan-out is not.
      const holdsShortCheck = async (pid: number): Promise<boolean> => (await checkClaims(set.databaseUrl)).some((claim) => heldBy(claim, pid) && claim.intervalSeconds <= SHORT_INTERVAL_SECONDS);
      let victim = set.replicas[1]!;
      await until(async () => {
        for (const candidate of set.replicas.slice(1)) {
          if (await holdsShortCheck(candidate.child.pid!)) {
            victim = candidate;
            return true;
          }
        }
        return false;
      }, 'a replica to hold a check', 90_000);
      const pid = victim.child.pid!;
      const victimHoldsCheck = (): Promise<boolean> => holdsShortCheck(pid);
      await createIncident(set.api, page.monitorId, 'Replica fault drill');
      await until(() => set.smtp.mails.length >= 30, 'the fan-out to start');
      // Every replica sends its share (each row claimed by one): the one killed is one of them.
      await until(async () => (await senders()) === 3 && (await victimHoldsCheck()), 'all three replicas to send', 30_000);
      await victim.kill();
      const killedAt = Date.now();
      const atKill = set.smtp.mails.length;
      const orphaned = (await checkClaims(set.databaseUrl)).filter((claim) => heldBy(claim, pid) && claim.intervalSeconds <= SHORT_INTERVAL_SECONDS);
      const longest = Math.max(...orphaned.map((claim) => claim.intervalSeconds));
      // Its checks go on elsewhere within one interval (a claim left behind is due at its next_at).
      const takenOver = until(async () => {
        const now = await checkClaims(set.databaseUrl);
        return orphaned.every((lost) => now.some((claim) => claim.key === lost.key && !heldBy(claim, pid)));
      }, 'the killed replica\'s checks to run elsewhere', (longest + 30) * 1000).then(() => Date.now() - killedAt);
      // Awaited below; marked handled so that an earlier failed assertion leaves no rejection behind.
      takenOver.catch(() => undefined);
      expect(orphaned.length).toBeGreaterThan(0);
      // The API goes on taking writes through its balancer (nginx passes a refused connection on).
      const written = await apiWrite(set.api, 'POST', '/incidents', { monitorIds: [page.monitorId], title: 'After the kill', message: 'Investigating.', severity: 'minor' });
      expect(written.status, written.body).toBe(201);
      expect(atKill).toBeLessThan(SUBSCRIBERS);
      // The survivors go on; the dead one's claims (at most a batch of 4) wait for their lease.
      await until(() => set.smtp.mails.length >= SUBSCRIBERS - 4, 'the survivors to mail everyone else', 90_000);
      const tally = await load.stop();
      expect(tally.failures).toEqual([]);
      expect(tally.ok).toBeGreaterThan(50);
      const counts = mailsAbout(set.smtp.mails, 'Replica fault drill');
      expect([...counts.values()].filter((count) => count > 1)).toEqual([]);
      expect(counts.size).toBeGreaterThanOrEqual(SUBSCRIBERS - 4);
      expect(set.smtp.mails.length).toBeGreaterThan(atKill);
      const takeoverMs = await takenOver;
      console.log(`the killed replica's ${orphaned.length} checks ran elsewhere ${(takeoverMs / 1000).toFixed(1)} s after the kill (interval ${longest} s)`);
      expect(takeoverMs).toBeLessThan((longest + 15) * 1000);
    } finally {
      await load.stop();
    }
  }, 180_000);
});
