/**
 * `node_modules/.bin/node bench/replicas.ts` (after `npx astro build`; `npm run bench` runs it
 * last): three Porchlight site replicas behind nginx on one throwaway PostgreSQL, with the API in
 * one process of its own (test/support/replicas.ts). Measures the demo page's throughput through
 * nginx over one replica and over three (on 2 cores the machine, not the replica count, bounds
 * it), the requests that fail at the balancer while one replica is killed with SIGKILL under
 * load, and a 10,000-subscriber incident fan-out shared by the three replicas' senders (every
 * subscriber exactly one mail, counted at a loopback SMTP server, and the time it takes). Writes
 * bench/results/replicas.json and the replicas section of docs/benchmarks.md. Bounded: about
 * three minutes.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { cpus } from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { SMTPServer } from 'smtp-server';
import { SubscriberStore } from '../src/subscribers/store.ts';
import { replicaToolsAvailable, startReplicaSet } from '../test/support/replicas.ts';
import { createIncident, demoPage } from '../test/replicas/support.ts';
import { loadGenerator, median, runLoad, type LoadResult } from './lib/load.ts';
import { root } from './lib/processes.ts';

const SUBSCRIBERS = 10_000;
const CONNECTIONS = 50;
const RUN_SECONDS = 5;
const RUNS = 3;
const FAN_OUT_LIMIT_MS = 300_000;

/** A catch-all SMTP server that counts each recipient it accepts a message for. */
async function countingSmtp(): Promise<{ port: number; perRecipient: Map<string, number>; close(): Promise<void> }> {
  const perRecipient = new Map<string, number>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      stream.on('data', () => undefined);
      stream.on('end', () => {
        for (const recipient of session.envelope.rcptTo) perRecipient.set(recipient.address, (perRecipient.get(recipient.address) ?? 0) + 1);
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return { port: (server.server.address() as AddressInfo).port, perRecipient, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** Confirmed subscribers written straight into the shared store, a few writers at once. */
async function seed(databaseUrl: string, pageId: string): Promise<void> {
  const store = await SubscriberStore.open({ dialect: 'postgres', url: databaseUrl });
  try {
    const writers = 4;
    await Promise.all(
      Array.from({ length: writers }, async (_, writer) => {
        for (let i = writer; i < SUBSCRIBERS; i += writers) {
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

interface Result {
  oneReplica: LoadResult[];
  threeReplicas: LoadResult[];
  killed: LoadResult;
  fanOut: { subscribers: number; mailed: number; twice: number; seconds: number | null; perReplicaPace: string; sentPerProcess: number[] };
}

async function main(): Promise<Result> {
  const smtp = await countingSmtp();
  // No pace (SUBSCRIPTION_MAILS_PER_SECOND=0): the fan-out as fast as three senders go.
  const set = await startReplicaSet({ replicas: 3, freshSeconds: 10, env: { SMTP_PORT: String(smtp.port), SUBSCRIPTION_MAILS_PER_SECOND: '0' } });
  try {
    const one = await set.balancerOver([0]);
    const pageUrl = (base: string) => `${base}/acme`;
    for (const url of [one.url, set.url]) await runLoad(pageUrl(url), CONNECTIONS, 2);
    const oneReplica: LoadResult[] = [];
    const threeReplicas: LoadResult[] = [];
    // Interleaved, so that both get the same machine.
    for (let run = 0; run < RUNS; run += 1) {
      oneReplica.push(await runLoad(pageUrl(one.url), CONNECTIONS, RUN_SECONDS));
      threeReplicas.push(await runLoad(pageUrl(set.url), CONNECTIONS, RUN_SECONDS));
    }
    await one.stop();

    // One replica killed 2 s into a 6 s run.
    const killedRun = runLoad(pageUrl(set.url), CONNECTIONS, 6);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    await set.replicas[2]!.kill();
    const killed = await killedRun;
    await set.restart(2);

    const page = await demoPage(set.api);
    await seed(set.databaseUrl, page.id);
    const created = performance.now();
    await createIncident(set.api, page.monitorId, 'Bench: replicas fan-out');
    let seconds: number | null = null;
    while (performance.now() - created < FAN_OUT_LIMIT_MS) {
      if (smtp.perRecipient.size >= SUBSCRIBERS) {
        seconds = (performance.now() - created) / 1000;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // A moment for a duplicate to arrive, had one been sent.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const counts = [...smtp.perRecipient.values()];
    const sql = postgres(set.databaseUrl, { max: 1, onnotice: () => undefined });
    const shares = await sql`SELECT COUNT(*)::int AS n FROM subscribers.outbox WHERE state = 'sent' GROUP BY claimed_by ORDER BY n DESC`;
    await sql.end({ timeout: 5 });
    return {
      oneReplica,
      threeReplicas,
      killed,
      fanOut: { subscribers: SUBSCRIBERS, mailed: smtp.perRecipient.size, twice: counts.filter((count) => count > 1).length, seconds, perReplicaPace: 'unpaced (SUBSCRIPTION_MAILS_PER_SECOND=0)', sentPerProcess: shares.map((share) => Number(share.n)) },
    };
  } finally {
    await set.close();
    await smtp.close();
  }
}

function section(result: Result, generator: string): string {
  const row = (name: string, runs: LoadResult[]) =>
    `| ${name} | ${Math.round(median(runs.map((run) => run.requestsPerSecond)))} | ${median(runs.map((run) => run.p99Ms)).toFixed(1)} | ${runs.reduce((sum, run) => sum + run.errors + run.non2xx, 0)} |`;
  const { fanOut, killed } = result;
  return [
    `Measured ${new Date().toISOString().slice(0, 10)} on ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown CPU'}), Node ${process.version}, ${generator}, ${CONNECTIONS} connections, ${RUNS} interleaved runs of ${RUN_SECONDS} s each (medians). nginx (1 worker) balances; the replicas share one PostgreSQL and one API process; everything runs on the same cores, so three replicas cannot be three times one.`,
    '',
    '| Through nginx to | req/s | p99 ms | failed requests |',
    '|---|---|---|---|',
    row('one replica', result.oneReplica),
    row('three replicas', result.threeReplicas),
    '',
    `One of three replicas killed with SIGKILL 2 s into a 6 s run: ${killed.errors + killed.non2xx} failed requests of ${killed.requests} (${Math.round(killed.requestsPerSecond)} req/s over the run; nginx retries on the next replica, \`proxy_next_upstream error timeout http_502 http_503\`).`,
    '',
    `Fan-out: ${fanOut.subscribers.toLocaleString('en')} confirmed subscribers, one incident, three replicas sending from one outbox, ${fanOut.perReplicaPace}: ${fanOut.seconds === null ? `only ${fanOut.mailed.toLocaleString('en')} mailed within ${FAN_OUT_LIMIT_MS / 1000} s` : `every subscriber mailed ${fanOut.seconds.toFixed(1)} s after the incident was created`}; ${fanOut.mailed.toLocaleString('en')} distinct recipients, ${fanOut.twice} mailed twice (counted per RCPT TO at a loopback SMTP server); mails sent per sender process: ${fanOut.sentPerProcess.map((count) => count.toLocaleString('en')).join(', ')}.`,
  ].join('\n');
}

/** Runs the section and writes it (bench/results/replicas.json, docs/benchmarks.md); returns its text. */
export async function runReplicasBench(): Promise<string> {
  if (!replicaToolsAvailable()) return 'replicas: skipped (nginx or PostgreSQL 15+ not installed)';
  const result = await main();
  const text = section(result, await loadGenerator());
  await mkdir(path.join(root, 'bench/results'), { recursive: true });
  await writeFile(path.join(root, 'bench/results/replicas.json'), JSON.stringify(result, null, 2));
  const docs = path.join(root, 'docs/benchmarks.md');
  const current = await readFile(docs, 'utf8');
  const block = `<!-- replicas:start -->\n${text}\n<!-- replicas:end -->`;
  const next = current.includes('<!-- replicas:start -->')
    ? current.replace(/<!-- replicas:start -->[\s\S]*<!-- replicas:end -->/, block)
    : `${current.trimEnd()}\n\n## Replicas\n\n\`node_modules/.bin/node bench/replicas.ts\` (after \`npx astro build\`; \`npm run bench\` runs it last): three site replicas behind nginx on one PostgreSQL (test/support/replicas.ts).\n\n${block}\n`;
  await writeFile(docs, next);
  return text;
}

if (import.meta.main) console.log(await runReplicasBench());
