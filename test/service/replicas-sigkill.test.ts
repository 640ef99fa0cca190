/**
 * Two `npm run api` processes on one PostgreSQL database; the one that holds a monitor's checks is
 * killed with SIGKILL (no shutdown, its claim left in the database): the other checks the monitor
 * within one interval of the check the dead one would have run next.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { delimiter, join, resolve } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createOrganization, Store } from '../../src/service/index.ts';
import { startTargetServer } from './checks/target-server.ts';
import { DIALECTS, useDialects } from '../support/postgres.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const PATH = [join(ROOT, 'node_modules', '.bin'), process.env.PATH ?? ''].join(delimiter);
const dialects = useDialects();
const children: ChildProcess[] = [];
const pids = new Set<number>();
afterAll(() => {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  for (const child of children) child.kill('SIGKILL');
});

function startApi(databaseUrl: string): Promise<void> {
  const child = spawn(join(ROOT, 'node_modules', '.bin', 'node'), ['src/service/main.ts'], {
    cwd: ROOT,
    env: { PATH, PORT: '0', DATABASE_URL: databaseUrl, SEED_DEMO: 'false', ALLOW_PRIVATE_TARGETS: 'true' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  if (child.pid) pids.add(child.pid);
  return new Promise((ready, fail) => {
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('listening on')) ready();
    });
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => fail(new Error(`npm run api exited (${code}): ${output}`)));
  });
}

describe.runIf(DIALECTS.includes('postgres'))('a replica killed with SIGKILL', () => {
  it('leaves its checks to the other within one interval', async () => {
    const target = await startTargetServer();
    const url = dialects.postgresUrl();
    // The processes' store: the schema `service` of this file's database.
    const store = await Store.open({ dialect: 'postgres', url, schema: 'service' });
    try {
      const { organizationId } = await createOrganization(store, { name: 'Replicas', plan: 'pro' });
      const monitor = await store.monitors.insert(organizationId, { name: 'Watched', type: 'http', url: `${target.url}/`, interval: 10, timeout: 2, method: 'GET', headers: {}, regions: ['eu'], autoIncidents: false, rules: [] }, new Date());
      await Promise.all([startApi(url), startApi(url)]);

      const claimer = async () => {
        const row = await store.db.get('SELECT claimed_by, next_at FROM check_claims WHERE monitor_id = ?', monitor.id);
        return row ? { holder: String(row.claimed_by), nextAt: Date.parse(String(row.next_at)) } : null;
      };
      // Each process's first check falls somewhere in the first interval.
      await vi.waitFor(async () => expect(await claimer()).not.toBeNull(), { timeout: 20_000, interval: 200 });
      const first = await claimer();
      const pid = Number(first?.holder.split(':')[1]);
      // The claim names one of the two processes started here (hostname:pid:random): only that one is killed.
      expect(pids.has(pid)).toBe(true);
      process.kill(pid, 'SIGKILL');
      const killedAt = Date.now();
      const checksBefore = await store.checks.count(monitor.id);

      // The dead process's claim runs out at next_at; the survivor's timer fires within an interval after that.
      await vi.waitFor(
        async () => {
          const now = await claimer();
          expect(now?.holder.split(':')[1]).not.toBe(String(pid));
          expect(await store.checks.count(monitor.id)).toBeGreaterThan(checksBefore);
        },
        { timeout: 30_000, interval: 250 },
      );
      const takenOverAfterMs = Date.now() - (first?.nextAt ?? killedAt);
      expect(takenOverAfterMs).toBeLessThanOrEqual(10_000 + 2_000);
    } finally {
      await store.close();
      await target.close();
    }
  }, 90_000);
});
