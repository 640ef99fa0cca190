/** What the replica fault tests share: the demo page, seeded subscribers, an incident, the form. */
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
