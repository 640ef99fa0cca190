/**
 * A PostgreSQL hot standby (`pg_basebackup -R`) beside the primary, two replicas behind nginx with
 * a multi-host DATABASE_URL (`target_session_attrs=read-write`); the primary killed with SIGKILL
 * and the standby promoted (`pg_ctl promote`, as an operator or a fail-over manager would):
 * Porchlight takes a subscription and an API write (POST /incidents through the API's nginx) again
 * within 10 s, on its own, answering 503 with Retry-After (never a 500) meanwhile, and the
 * subscription is on the new primary.
 */
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PostgresCluster } from '../support/postgres.ts';
import { replicaTestsRun, startReplicaSet, until, type ReplicaSet } from '../support/replicas.ts';
import { apiWrite, demoPage, postForm } from './support.ts';

const WRITES_AGAIN_WITHIN_MS = 10_000;

describe.runIf(replicaTestsRun())('the primary lost, the standby promoted', () => {
  let set: ReplicaSet;
  let standby: PostgresCluster & { promote(): void };
  beforeAll(async () => {
    set = await startReplicaSet({
      replicas: 2,
      databaseUrl: async (primary) => {
        standby = await primary.startStandby();
        return `postgres://porchlight@127.0.0.1:${primary.port},127.0.0.1:${standby.port}/porchlight?target_session_attrs=read-write`;
      },
    });
  }, 120_000);
  afterAll(async () => set?.close(), 60_000);

  it('takes a subscription and an API write again within 10 s of the promotion, unattended', async () => {
    const page = await demoPage(set.api);
    await until(async () => (await postForm(set.url, 'before@example.com')).status === 200, 'a first subscription', 30_000);
    // Each replica's subscriptions have their page snapshot (without one, a replica answers "starting
    // up", and cannot get one while the database is gone: the embedded API reads it there too).
    for (const replica of set.replicas) await until(async () => (await postForm(replica.url, 'before@example.com')).status === 200, 'every replica to take subscriptions', 30_000);
    // Replication is asynchronous: a primary killed before its last commit reached the standby
    // loses it (docs/storage.md). That is PostgreSQL's promise, not under test: wait for the replay.
    await until(async () => (await onStandby(['before@example.com'])).length === 1, 'the standby to replay the first subscription', 30_000);
    set.postgres.kill();
    // Writes meanwhile: a clear 503, never a 500.
    const askedAt = Date.now();
    const meanwhile = await postForm(set.url, 'meanwhile@example.com');
    // Answered, not left hanging while no server takes writes.
    const meanwhileMs = Date.now() - askedAt;
    expect(meanwhileMs).toBeLessThan(12_000);
    expect(meanwhile.status, meanwhile.body).toBe(503);
    expect(meanwhile.body).toContain('nothing was saved');
    expect(meanwhile.retryAfter, meanwhile.body).not.toBeNull();
    standby.promote();
    const promotedAt = Date.now();
    const answers: number[] = [];
    let address = '';
    for (let attempt = 0; Date.now() - promotedAt < WRITES_AGAIN_WITHIN_MS + 20_000; attempt += 1) {
      address = `after${attempt}@example.com`;
      const answer = await postForm(set.url, address);
      answers.push(answer.status);
      if (answer.status === 200) break;
      expect(answer.status, answer.body).toBe(503);
      expect(answer.retryAfter, answer.body).not.toBeNull();
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const tookMs = Date.now() - promotedAt;
    expect(answers.at(-1)).toBe(200);
    expect(tookMs).toBeLessThan(WRITES_AGAIN_WITHIN_MS);
    console.log(`writes again ${tookMs} ms after the promotion (answers meanwhile: ${answers.join(' ')}); the first 503 took ${meanwhileMs} ms`);
    // The embedded APIs write again too (their pools find the new primary the same way).
    const incident = { monitorIds: [page.monitorId], title: 'After the promotion', message: 'Investigating.', severity: 'minor' };
    for (;;) {
      const answer = await apiWrite(set.api, 'POST', '/incidents', incident);
      if (answer.status === 201) break;
      expect(answer.status, answer.body).toBe(503);
      expect(answer.retryAfter, answer.body).not.toBeNull();
      if (Date.now() - promotedAt > WRITES_AGAIN_WITHIN_MS + 20_000) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const apiTookMs = Date.now() - promotedAt;
    console.log(`the API writes again ${apiTookMs} ms after the promotion`);
    expect(apiTookMs).toBeLessThan(WRITES_AGAIN_WITHIN_MS);
    expect((await onStandby(['before@example.com', address])).sort()).toEqual([address, 'before@example.com'].sort());
  }, 180_000);

  /** Which of these addresses the standby (the new primary, once promoted) holds. */
  async function onStandby(addresses: string[]): Promise<string[]> {
    const sql = postgres(standby.url('porchlight'), { max: 1, onnotice: () => undefined });
    try {
      return (await sql`SELECT email FROM subscribers.subscribers WHERE email IN ${sql(addresses)}`).map((row) => row.email as string);
    } finally {
      await sql.end({ timeout: 5 });
    }
  }
});
