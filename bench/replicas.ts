/**
 * The replicas section of `npm run bench` (run last), alone: `npm run bench -- --replicas-only`,
 * or `node_modules/.bin/node bench/replicas.ts` after `npx astro build`; `--quick` (and the size
 * flags of bench/lib/replicas-report.ts) for a short try. Three whole `npm start` replicas (each
 * with its embedded API) behind nginx on one throwaway PostgreSQL (test/support/replicas.ts):
 * - the demo page's throughput through nginx over one replica and over three (on 2 cores the
 *   machine, not the replica count, bounds it);
 * - one replica killed with SIGKILL under load: the requests that fail at the balancer, and the
 *   seconds until another replica records the next check of a 10 s monitor whose check the killed
 *   one held;
 * - a 10,000-subscriber incident fan-out shared by the three replicas' senders (every subscriber
 *   exactly one mail, counted at a loopback SMTP server, and the time it takes).
 * Then, with the replicas gone, SQLite against PostgreSQL: the API's HTTP conformance suite's time
 * (bench/lib/conformance-time.ts) and an API write's latency (bench/write-latency.ts).
 * Writes bench/results/replicas.json, the `replicas` key of bench/results/latest.json and the
 * replicas block of docs/benchmarks.md. Bounded: about three minutes at full size on a quiet machine
 * (longer under load; the fan-out is given at most FAN_OUT_LIMIT_MS).
 */
import { createServer } from 'node:http';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { createClient } from '../src/api/index.ts';
import { replicaToolsAvailable, startReplicaSet, until, type ReplicaSet } from '../test/support/replicas.ts';
import { createIncident, demoPage } from '../test/replicas/support.ts';
import { CONFORMANCE_FILES, timeConformance } from './lib/conformance-time.ts';
import { loadGenerator, runLoad, type LoadResult } from './lib/load.ts';
import { root } from './lib/processes.ts';
import { countingSmtp, seedConfirmedSubscribers, type CountingSmtp } from './lib/subscriber-fixtures.ts';
import { parseReplicasArgs, replicasSection, withReplicasSection, type ChecksResume, type FanOut, type ReplicasResult, type ReplicasSizes } from './lib/replicas-report.ts';
import { measureWriteLatency } from './write-latency.ts';

const FAN_OUT_LIMIT_MS = 300_000;
/** The monitor followed across the kill: the shortest interval the API allows. */
const CHECK_INTERVAL_SECONDS = 10;
/** The kill comes this long into a run of KILLED_RUN_SECONDS. */
const KILL_AFTER_MS = 2_000;
const KILLED_RUN_SECONDS = 6;
/** How long after its creation every replica's scheduler has a monitor (the engine's resync, 30 s, and a margin). */
const RESYNC_MS = 35_000;

/** A loopback HTTP target that answers every check 200. */
async function checkTarget(): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((_request, response) => response.end('ok'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The replica whose process `claimedBy` (`host:pid:random`, service/engine/scheduler.ts) names. */
function replicaOf(set: ReplicaSet, claimedBy: string): number | null {
  const pid = claimedBy.split(':').at(-2);
  return set.replicas.find((replica) => String(replica.child.pid) === pid)?.index ?? null;
}

/** The monitor followed across the kill: a 10 s HTTP check of a loopback target, created at once. */
interface FollowedMonitor {
  id: string;
  createdAt: number;
  close(): Promise<void>;
}

async function followedMonitor(set: ReplicaSet): Promise<FollowedMonitor> {
  const target = await checkTarget();
  const client = createClient({ baseUrl: set.api.url, apiKey: set.api.key, maxRetries: 0 });
  try {
    const monitor = await client.monitors.create({ name: 'Bench: checks across a kill', type: 'http', url: target.url, interval: CHECK_INTERVAL_SECONDS, regions: ['eu'] });
    return {
      id: monitor.id,
      createdAt: Date.now(),
      async close() {
        // Paused: its checks are not part of what follows (harmless if they were: a failed pause is let be).
        const again = createClient({ baseUrl: set.api.url, apiKey: set.api.key, maxRetries: 0 });
        try {
          await again.monitors.update(monitor.id, { active: false });
        } catch {
          // The set is failing already; close() below still frees the target.
        } finally {
          await again.close();
          await target.close();
        }
      },
    };
  } catch (error) {
    await target.close();
    throw error;
  } finally {
    await client.close();
  }
}

/**
 * One replica killed with SIGKILL under load: the one that holds the followed monitor's check,
 * killed just after it claimed it (so its claim outlives it by most of an interval). Returns the
 * load run over the kill and when the monitor's checks resumed elsewhere; restarts the replica.
 */
async function killOneReplica(set: ReplicaSet, monitor: FollowedMonitor, connections: number): Promise<{ killed: LoadResult; checksResume: ChecksResume }> {
  const sql = postgres(set.databaseUrl, { max: 1, onnotice: () => undefined });
  try {
    const claim = async () => {
      const [row] = await sql`SELECT claimed_by, next_at FROM service.check_claims WHERE monitor_id = ${monitor.id} AND region = 'eu'`;
      return row ? { holder: row.claimed_by as string, nextAt: new Date(row.next_at as string | Date).getTime() } : null;
    };
    // Every replica's scheduler has the monitor after its periodic resync (30 s, monitoring.ts);
    // before that only the one whose API created it would run it.
    await sleep(monitor.createdAt + RESYNC_MS - Date.now());
    // Just claimed: its due time at least 6 s ahead, so the holder still holds it at the kill.
    let victim = -1;
    await until(async () => {
      const now = await claim();
      victim = now ? (replicaOf(set, now.holder) ?? -1) : -1;
      return now !== null && victim !== -1 && now.nextAt - Date.now() >= (CHECK_INTERVAL_SECONDS - 4) * 1000;
    }, 'a replica to claim the bench monitor\'s check', 120_000);
    const run = runLoad(`${set.url}/acme`, connections, KILLED_RUN_SECONDS);
    await sleep(KILL_AFTER_MS);
    const held = await claim();
    const killedAt = Date.now();
    await set.replicas[victim]!.kill();
    const killed = await run;
    const firstAfter = async () => {
      const [row] = await sql`SELECT checked_at FROM service.checks WHERE monitor_id = ${monitor.id} AND checked_at > ${new Date(killedAt).toISOString()} ORDER BY checked_at LIMIT 1`;
      return row ? new Date(row.checked_at as string | Date).getTime() : null;
    };
    await until(async () => (await firstAfter()) !== null, 'the bench monitor\'s next check', (CHECK_INTERVAL_SECONDS + 30) * 1000).catch(() => undefined);
    const resumedAt = await firstAfter();
    const [before] = await sql`SELECT MAX(checked_at) AS at FROM service.checks WHERE monitor_id = ${monitor.id} AND checked_at <= ${new Date(killedAt).toISOString()}`;
    const lastBefore = before?.at ? new Date(before.at as string | Date).getTime() : null;
    const after = await claim();
    await set.restart(victim);
    return {
      killed,
      checksResume: {
        intervalSeconds: CHECK_INTERVAL_SECONDS,
        killedReplica: victim,
        resumedBy: resumedAt !== null && after ? replicaOf(set, after.holder) : null,
        dueAfterKillSeconds: held ? (held.nextAt - killedAt) / 1000 : Number.NaN,
        resumedAfterSeconds: resumedAt === null ? null : (resumedAt - killedAt) / 1000,
        gapSeconds: resumedAt === null || lastBefore === null ? null : (resumedAt - lastBefore) / 1000,
      },
    };
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/** Every subscriber of the demo page mailed about one incident, by the three replicas' senders. */
async function fanOut(set: ReplicaSet, smtp: CountingSmtp, subscribers: number): Promise<FanOut> {
  const page = await demoPage(set.api);
  await seedConfirmedSubscribers({ dialect: 'postgres', url: set.databaseUrl }, page.id, subscribers, 4);
  const created = performance.now();
  await createIncident(set.api, page.monitorId, 'Bench: replicas fan-out');
  let seconds: number | null = null;
  while (performance.now() - created < FAN_OUT_LIMIT_MS) {
    if (smtp.perRecipient.size >= subscribers) {
      seconds = (performance.now() - created) / 1000;
      break;
    }
    await sleep(100);
  }
  // A moment for a duplicate to arrive, had one been sent.
  await sleep(2_000);
  const counts = [...smtp.perRecipient.values()];
  const sql = postgres(set.databaseUrl, { max: 1, onnotice: () => undefined });
  try {
    const shares = await sql`SELECT COUNT(*)::int AS n FROM subscribers.outbox WHERE state = 'sent' GROUP BY claimed_by ORDER BY n DESC`;
    return { subscribers, mailed: smtp.perRecipient.size, twice: counts.filter((count) => count > 1).length, seconds, limitSeconds: FAN_OUT_LIMIT_MS / 1000, sentPerProcess: shares.map((share) => Number(share.n)) };
  } finally {
    await sql.end({ timeout: 5 });
  }
}

async function measure(sizes: ReplicasSizes): Promise<Omit<ReplicasResult, 'at' | 'machine' | 'generator' | 'loadAverage' | 'durationSeconds' | 'sizes'>> {
  const smtp = await countingSmtp();
  // No pace (SUBSCRIPTION_MAILS_PER_SECOND=0): the fan-out as fast as three senders go.
  const set = await startReplicaSet({ replicas: 3, freshSeconds: 10, env: { SMTP_PORT: String(smtp.port), SUBSCRIPTION_MAILS_PER_SECOND: '0' } });
  let replicas: Pick<ReplicasResult, 'oneReplica' | 'threeReplicas' | 'killed' | 'checksResume' | 'fanOut'>;
  try {
    // Created first, so that every replica schedules it (resync) while the load runs.
    const monitor = await followedMonitor(set);
    const oneReplica: LoadResult[] = [];
    const threeReplicas: LoadResult[] = [];
    let kill: Awaited<ReturnType<typeof killOneReplica>>;
    try {
      const one = await set.balancerOver([0]);
      const pageUrl = (base: string) => `${base}/acme`;
      for (const url of [one.url, set.url]) await runLoad(pageUrl(url), sizes.connections, 2);
      // Interleaved, so that both get the same machine.
      for (let run = 0; run < sizes.runs; run += 1) {
        oneReplica.push(await runLoad(pageUrl(one.url), sizes.connections, sizes.runSeconds));
        threeReplicas.push(await runLoad(pageUrl(set.url), sizes.connections, sizes.runSeconds));
      }
      await one.stop();
      kill = await killOneReplica(set, monitor, sizes.connections);
    } finally {
      await monitor.close();
    }
    const { killed, checksResume } = kill;
    replicas = { oneReplica, threeReplicas, killed, checksResume, fanOut: await fanOut(set, smtp, sizes.subscribers) };
  } finally {
    await set.close();
    await smtp.close();
  }
  // The replicas gone, so that they do not load the machine: SQLite against PostgreSQL.
  const conformance = await timeConformance(CONFORMANCE_FILES.slice(0, sizes.conformanceFiles));
  const writeLatency = await measureWriteLatency(sizes.writes);
  return { ...replicas, conformance, writeLatency };
}

/**
 * Runs the section and writes it (bench/results/replicas.json, `replicas` in
 * bench/results/latest.json, docs/benchmarks.md); returns its Markdown.
 */
export async function runReplicasBench(sizes: ReplicasSizes = parseReplicasArgs([])): Promise<string> {
  if (!replicaToolsAvailable()) return 'replicas: skipped (nginx or PostgreSQL 15+ not installed)';
  const started = Date.now();
  const loadAtStart = loadavg()[0]!;
  const measured = await measure(sizes);
  const result: ReplicasResult = {
    at: new Date().toISOString(),
    machine: `${cpus().length} cores, ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}`,
    generator: await loadGenerator(),
    sizes,
    loadAverage: { start: loadAtStart, end: loadavg()[0]! },
    ...measured,
    durationSeconds: Math.round((Date.now() - started) / 1000),
  };
  const section = replicasSection(result);
  const results = path.join(root, 'bench/results');
  await mkdir(results, { recursive: true });
  await writeFile(path.join(results, 'replicas.json'), JSON.stringify(result, null, 2));
  // The whole run's figures in one file: `npm run bench` wrote the rest of it just before.
  const latestFile = path.join(results, 'latest.json');
  const latest = JSON.parse(await readFile(latestFile, 'utf8').catch(() => '{}')) as Record<string, unknown>;
  await writeFile(latestFile, JSON.stringify({ ...latest, replicas: result }, null, 2));
  const docs = path.join(root, 'docs/benchmarks.md');
  await writeFile(docs, withReplicasSection(await readFile(docs, 'utf8').catch(() => '# Benchmarks\n'), section));
  return section;
}

if (import.meta.main) console.log(await runReplicasBench(parseReplicasArgs(process.argv.slice(2))));
