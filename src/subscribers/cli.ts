/**
 * `npm run subscribers -- list | export | remove <id or address>`: the operators' view of the
 * subscribers store (DATABASE_URL when set, else SUBSCRIBERS_DB, default ./data/subscribers.db).
 * Safe while Porchlight runs (SQLite in WAL mode; PostgreSQL). Addresses are printed here, to the operator's terminal, and nowhere else.
 * Webhook and chat subscribers show as their channel and URL host only: a chat service's
 * incoming-webhook URL is itself a credential, and the signing secret is never printed.
 */
import { existsSync } from 'node:fs';
import { DatabaseUrlError, parseDatabaseUrl } from '../store/database-url.ts';
import { StoreConnectError, StoreVersionError } from '../store/errors.ts';
import { storeLocation } from '../store/location.ts';
import { csvTable } from './csv.ts';
import { SubscriberStore, type Subscriber } from './store.ts';

const USAGE = 'usage: npm run subscribers -- list | export | remove <subscriber id, e-mail address or webhook URL>';

/**
 * A webhook or chat URL as an operator may see it: its host only. A chat service's incoming-webhook
 * URL is itself a credential (and a webhook's path may carry one), so the path never shows. No URL,
 * or one that does not parse, is `unknown` ('?' on screen; the CSV export's column stays empty).
 */
export function endpointHost(url: string | null, unknown = '?'): string {
  return url && URL.canParse(url) ? new URL(url).host : unknown;
}

/** How a subscriber is named to the operator: the address, or the channel and the URL's host. */
export function reachedAt(s: Subscriber): string {
  if (s.channel === 'email' || !s.endpointUrl) return s.email;
  const host = endpointHost(s.endpointUrl);
  return `${s.channel} ${host}${s.contactEmail ? ` (contact ${s.contactEmail})` : ''}`;
}

function toCsv(subscribers: readonly Subscriber[]): string {
  // Newer columns last (locale: empty = the page's default language; channel and the webhook URL's host), so the older ones keep their places.
  const header = ['id', 'page_id', 'email', 'state', 'components', 'created_at', 'locale', 'channel', 'endpoint_host'];
  return csvTable(header, subscribers.map((s) => [s.id, s.pageId, s.channel === 'email' ? s.email : (s.contactEmail ?? ''), s.state, s.components.join(' '), new Date(s.createdAt).toISOString(), s.locale ?? '', s.channel, endpointHost(s.endpointUrl, '')]));
}

export async function runCli(args: readonly string[], env: NodeJS.ProcessEnv, out: (text: string) => void): Promise<number> {
  const path = env.SUBSCRIBERS_DB?.trim() || './data/subscribers.db';
  const databaseUrl = env.DATABASE_URL?.trim() || null;
  const [command, target] = args;
  if (command !== 'list' && command !== 'export' && command !== 'remove') {
    out(`${USAGE}\n`);
    return 2;
  }
  if (databaseUrl === null && !existsSync(path)) {
    out(`no subscribers store at ${path} (set SUBSCRIBERS_DB, or DATABASE_URL for PostgreSQL)\n`);
    return 1;
  }
  let store: SubscriberStore;
  try {
    if (databaseUrl !== null) parseDatabaseUrl(databaseUrl);
    store = await SubscriberStore.open(storeLocation(databaseUrl, path));
  } catch (error) {
    // One line, never the URL (it may carry a password).
    if (error instanceof DatabaseUrlError || error instanceof StoreConnectError || error instanceof StoreVersionError) {
      out(`${error.message}\n`);
      return 1;
    }
    throw error;
  }
  try {
    if (command === 'list') {
      const all = await store.list();
      for (const s of all) out(`${s.id}  ${s.pageId}  ${s.state.padEnd(9)}  ${new Date(s.createdAt).toISOString()}  ${reachedAt(s)}\n`);
      out(`${all.length} subscribers\n`);
      return 0;
    }
    if (command === 'export') {
      out(toCsv(await store.list()));
      return 0;
    }
    if (!target) {
      out(`${USAGE}\n`);
      return 2;
    }
    const found = await store.find(target);
    for (const s of found) await store.remove(s.id);
    out(`removed ${found.length} subscriber${found.length === 1 ? '' : 's'}\n`);
    return found.length > 0 ? 0 : 1;
  } finally {
    await store.close();
  }
}

if (import.meta.main) {
  process.exitCode = await runCli(process.argv.slice(2), process.env, (text) => process.stdout.write(text));
}
