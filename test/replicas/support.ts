/** What the replica fault tests share: the demo page, seeded subscribers, an incident, the form. */
import postgres from 'postgres';
import { createClient } from '../../src/api/index.ts';
import { SubscriberStore } from '../../src/subscribers/store.ts';
import type { ReceivedMail } from '../e2e/support/smtp-sink.ts';

export interface DemoPage {
  id: string;
  monitorId: string;
}

export async function demoPage(api: { url: string; key: string }): Promise<DemoPage> {
  const client = createClient({ baseUrl: api.url, apiKey: api.key, maxRetries: 0 });
  try {
    for await (const page of client.statusPages.listAll()) if (page.slug === 'acme') return { id: page.id, monitorId: page.monitors[0]!.monitorId };
    throw new Error('no demo page acme');
  } finally {
    await client.close();
  }
}

/** `count` confirmed e-mail subscribers of the page, written straight into the shared store. */
export async function seedSubscribers(databaseUrl: string, pageId: string, count: number, prefix = 'reader'): Promise<string[]> {
  const store = await SubscriberStore.open({ dialect: 'postgres', url: databaseUrl });
  const addresses: string[] = [];
  try {
    for (let i = 0; i < count; i += 1) {
      const address = `${prefix}${i}@example.com`;
      const request = (await store.subscribe(pageId, { address, key: address }, [], Date.now()))!;
      await store.confirm(request.token, Date.now());
      addresses.push(address);
    }
  } finally {
    await store.close();
  }
  return addresses;
}

export async function createIncident(api: { url: string; key: string }, monitorId: string, title: string): Promise<void> {
  const client = createClient({ baseUrl: api.url, apiKey: api.key, maxRetries: 0 });
  try {
    await client.incidents.create({ monitorIds: [monitorId], title, message: 'Investigating.', severity: 'minor' });
  } finally {
    await client.close();
  }
}

/** Incident mails whose subject names `title`, per recipient. */
export function mailsAbout(mails: readonly ReceivedMail[], title: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const mail of mails) if ((mail.parsed.subject ?? '').includes(title)) counts.set(mail.to, (counts.get(mail.to) ?? 0) + 1);
  return counts;
}

/** The subscription form posted through the balancer, as a browser posts it. */
export async function postForm(url: string, email: string): Promise<{ status: number; retryAfter: string | null; body: string }> {
  const response = await fetch(`${url}/acme/subscribe`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email }).toString(),
    signal: AbortSignal.timeout(20_000),
  });
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body: await response.text() };
}

/** A write to the API through its balancer, raw: the status, Retry-After and body as sent. */
export async function apiWrite(api: { url: string; key: string }, method: 'POST' | 'PATCH', path: string, body: unknown): Promise<{ status: number; retryAfter: string | null; body: string }> {
  const response = await fetch(`${api.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${api.key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(20_000),
  });
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body: await response.text() };
}

export interface CheckClaim {
  /** `monitorId region` */
  key: string;
  /** `host:pid:random` of the process whose scheduler claimed the check last (service/engine/scheduler.ts). */
  claimedBy: string;
  intervalSeconds: number;
}

/** Who holds each scheduled check now, from the shared store. */
export async function checkClaims(databaseUrl: string): Promise<CheckClaim[]> {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => undefined });
  try {
    const rows = await sql`SELECT c.monitor_id, c.region, c.claimed_by, m.interval_seconds FROM service.check_claims c JOIN service.monitors m ON m.id = c.monitor_id`;
    return rows.map((row) => ({ key: `${row.monitor_id as string} ${row.region as string}`, claimedBy: row.claimed_by as string, intervalSeconds: Number(row.interval_seconds) }));
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/** Whether a claim is held by the process with this pid. */
export function heldBy(claim: CheckClaim, pid: number): boolean {
  return claim.claimedBy.split(':').at(-2) === String(pid);
}

/** How many checks the shared store recorded after `sinceIso`. */
export async function checksSince(databaseUrl: string, sinceIso: string): Promise<number> {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => undefined });
  try {
    const [row] = await sql`SELECT COUNT(*)::int AS n FROM service.checks WHERE checked_at > ${sinceIso}`;
    return Number(row?.n);
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/** The incidents of the shared store with this title. */
export async function incidentsTitled(databaseUrl: string, title: string): Promise<number> {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => undefined });
  try {
    const [row] = await sql`SELECT COUNT(*)::int AS n FROM service.incidents WHERE title = ${title}`;
    return Number(row?.n);
  } finally {
    await sql.end({ timeout: 5 });
  }
}
