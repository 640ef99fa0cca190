/**
 * The subscribers screen: how many confirmed and waiting e-mail subscribers and how many webhook
 * and chat subscriptions each page has (every operator; counted by the store's GROUP BY, never
 * read row by row), a page's confirmed e-mail addresses as a CSV download and the removal of one
 * address (an admin's: these are people's addresses), and the webhook and chat subscriptions
 * listed by channel and host only (a chat URL is a credential), each removable by an editor or an
 * admin. The store is Porchlight's own, opened on this thread the way `npx porchlight subscribers`
 * opens it (never through the subscriptions worker), and a removal is the CLI's own call
 * (`store.remove`), audited with the subscriber before and nothing after.
 */
import type { StatusPage } from '../api/index.ts';
import { endpointHost } from '../subscribers/cli.ts';
import { csvTable } from '../subscribers/csv.ts';
import { parseEmailAddress } from '../subscribers/email-address.ts';
import { SUBSCRIBER_CHANNELS, type PageSubscriberCounts, type Subscriber, type SubscriberChannel, type SubscriberState, type SubscriberStore } from '../subscribers/store.ts';
import type { Translator } from '../site/i18n/translator.ts';
import { html } from './html.ts';
import { consoleHref } from './paths.ts';
import { may } from './roles.ts';
import { page, type ScreenAnswer, type ScreenRequest, type ScreenTools } from './screen.ts';
import { csrfField, layout, problemLine, type ViewContext } from './views.ts';

/** At most this many webhook and chat subscriptions are listed (oldest first); the counts are all of them. */
export const ENDPOINTS_LISTED = 500;

export interface PageCounts {
  /** E-mail: confirmed (bouncing included: it is still subscribed) and waiting for confirmation. */
  confirmed: number;
  pending: number;
  /** Webhook and chat subscriptions that are subscribed (confirmed or paused). */
  endpoints: number;
}

/** A page's counts as the screen shows them, from the store's per channel and state counts. */
export function summarize(counts: PageSubscriberCounts | undefined): PageCounts {
  if (!counts) return { confirmed: 0, pending: 0, endpoints: 0 };
  const subscribed = (channel: SubscriberChannel) => counts[channel].confirmed + counts[channel].bouncing;
  const endpoints = SUBSCRIBER_CHANNELS.filter((channel) => channel !== 'email').reduce((sum, channel) => sum + subscribed(channel), 0);
  return { confirmed: subscribed('email'), pending: counts.email.pending, endpoints };
}

/** A page's confirmed e-mail addresses as CSV (a formula-looking cell is defused). */
export function confirmedCsv(subscribers: readonly Subscriber[], pageId: string): string {
  const confirmed = subscribers.filter((s) => s.pageId === pageId && s.channel === 'email' && s.state !== 'pending');
  return csvTable(['email', 'subscribed_at', 'locale'], confirmed.map((s) => [s.email, new Date(s.createdAt).toISOString(), s.locale ?? '']));
}

/**
 * A page's webhook and chat subscriptions as CSV: the URL's host only (a chat webhook's URL is a
 * credential), as `npx porchlight subscribers export` writes it, with the contact address a webhook
 * subscriber may leave.
 */
export function endpointsCsv(subscribers: readonly Subscriber[], pageId: string): string {
  const endpoints = subscribers.filter((s) => s.pageId === pageId && s.channel !== 'email');
  return csvTable(
    ['channel', 'endpoint_host', 'contact_email', 'state', 'components', 'subscribed_at', 'locale'],
    endpoints.map((s) => [s.channel, endpointHost(s.endpointUrl, ''), s.contactEmail ?? '', s.state, s.components.join(' '), new Date(s.createdAt).toISOString(), s.locale ?? '']),
  );
}

/** Slack, Discord and Microsoft Teams are names; a webhook is a word of the catalog. */
export function channelName(i18n: Translator, channel: SubscriberChannel): string {
  return { email: i18n.t('console.email'), webhook: i18n.t('console.channelWebhook'), slack: 'Slack', discord: 'Discord', teams: 'Microsoft Teams' }[channel];
}

const STATE_KEYS = { confirmed: 'console.confirmed', pending: 'console.waiting', bouncing: 'console.endpointPaused' } as const satisfies Record<SubscriberState, string>;

export interface SubscribersData {
  pages: readonly StatusPage[];
  counts: ReadonlyMap<string, PageSubscriberCounts>;
  endpoints: readonly Subscriber[];
  isAdmin: boolean;
  /** Editors and admins remove webhook and chat subscriptions. */
  mayRemoveEndpoints: boolean;
  /** Where the listed webhook and chat subscriptions start (0-based) and whether more follow. */
  endpointsWindow: { from: number; hasMore: boolean };
}

function endpointsSection(ctx: ViewContext, data: SubscribersData): ReturnType<typeof html> {
  const { i18n } = ctx;
  const names = new Map(data.pages.map((p) => [p.id, p.name]));
  const heading = html`<h2 id="endpoints-heading">${i18n.t('console.endpoints')}</h2>`;
  if (data.endpoints.length === 0) return html`<section aria-labelledby="endpoints-heading">${heading}<p>${i18n.t('console.noEndpoints')}</p></section>`;
  const { from, hasMore } = data.endpointsWindow;
  const to = from + data.endpoints.length;
  const pageLink = (start: number, text: string) => html`<a href="${consoleHref(`subscribers?from=${start}#endpoints-heading`)}">${text}</a>`;
  const paging =
    from > 0 || hasMore
      ? html`<p>${i18n.t('console.endpointsShown', { from: from + 1, to })} ${from > 0 ? pageLink(Math.max(0, from - ENDPOINTS_LISTED), i18n.t('console.endpointsPrevious', { count: ENDPOINTS_LISTED })) : ''} ${hasMore ? pageLink(to, i18n.t('console.endpointsNext', { count: ENDPOINTS_LISTED })) : ''}</p>`
      : '';
  const rows = data.endpoints.map((s) => {
    const target = endpointHost(s.endpointUrl);
    const remove = data.mayRemoveEndpoints
      ? html`<td><form method="post" action="${consoleHref('subscribers/remove-endpoint')}">${csrfField(ctx)}<input type="hidden" name="id" value="${s.id}"><button type="submit" class="quiet" aria-label="${i18n.t('console.removeEndpointOf', { channel: channelName(i18n, s.channel), target })}">${i18n.t('console.removeEndpoint')}</button></form></td>`
      : '';
    return html`<tr><td>${names.get(s.pageId) ?? s.pageId}</td><td>${channelName(i18n, s.channel)}</td><td dir="ltr">${target}</td><td>${i18n.t(STATE_KEYS[s.state])}</td><td>${i18n.dateTime(new Date(s.createdAt).toISOString())}</td>${remove}</tr>`;
  });
  return html`<section aria-labelledby="endpoints-heading">${heading}<p class="muted">${i18n.t('console.endpointsNote')}</p>
<table><thead><tr><th scope="col">${i18n.t('console.page')}</th><th scope="col">${i18n.t('console.channel')}</th><th scope="col">${i18n.t('console.endpointTarget')}</th><th scope="col">${i18n.t('console.endpointState')}</th><th scope="col">${i18n.t('console.endpointSince')}</th>${data.mayRemoveEndpoints ? html`<th scope="col">${i18n.t('console.actions')}</th>` : ''}</tr></thead><tbody>${rows}</tbody></table>${paging}</section>`;
}

export function subscribersView(ctx: ViewContext, data: SubscribersData, notice: string | null, problem: string | null): string {
  const { i18n } = ctx;
  const { pages, isAdmin } = data;
  const rows = pages.map((p) => {
    const count = summarize(data.counts.get(p.id));
    const exports = html`<a href="${consoleHref(`subscribers/export?page=${encodeURIComponent(p.id)}`)}" download="subscribers-${p.slug}.csv">${i18n.t('console.exportCsv')}</a>${count.endpoints > 0 ? html`<br><a href="${consoleHref(`subscribers/export?page=${encodeURIComponent(p.id)}&channels=endpoints`)}" download="webhooks-and-chats-${p.slug}.csv">${i18n.t('console.exportEndpointsCsv')}</a>` : ''}`;
    return html`<tr><td>${p.name}</td><td>${count.confirmed}</td><td>${count.pending}</td><td>${count.endpoints}</td>${isAdmin ? html`<td>${exports}</td>` : ''}</tr>`;
  });
  const removal = isAdmin
    ? html`<h2>${i18n.t('console.removeSubscriber')}</h2><form method="post" action="${consoleHref('subscribers/remove')}">${csrfField(ctx)}
<label for="sub-page">${i18n.t('console.page')}</label><select id="sub-page" name="page">${pages.map((p) => html`<option value="${p.id}">${p.name}</option>`)}</select>
<label for="sub-email">${i18n.t('console.email')}</label><input id="sub-email" name="email" type="email" required>
<button type="submit">${i18n.t('console.removeSubscriber')}</button></form>`
    : '';
  return layout(ctx, i18n.t('console.navSubscribers'), html`${problemLine(problem)}${notice ? html`<p role="status">${notice}</p>` : ''}
<table><thead><tr><th scope="col">${i18n.t('console.page')}</th><th scope="col">${i18n.t('console.confirmed')}</th><th scope="col">${i18n.t('console.waiting')}</th><th scope="col">${i18n.t('console.endpoints')}</th>${isAdmin ? html`<th scope="col">${i18n.t('console.actions')}</th>` : ''}</tr></thead><tbody>${rows}</tbody></table>
${removal}${endpointsSection(ctx, data)}`);
}

/** `?from=N`: a whole number, else the start. */
function listedFrom(query: URLSearchParams): number {
  const from = Number(query.get('from') ?? '0');
  return Number.isSafeInteger(from) && from > 0 ? from : 0;
}

export type SubscribersPart = 'list' | 'export' | 'remove' | 'remove-endpoint';

/** GET subscribers, GET subscribers/export?page=ID[&channels=endpoints], POST subscribers/remove, POST subscribers/remove-endpoint. */
export async function subscribersScreen(tools: ScreenTools, req: ScreenRequest, store: SubscriberStore | null, part: SubscribersPart, query: URLSearchParams): Promise<ScreenAnswer> {
  const isAdmin = may(req.role, 'operators');
  const mayRemoveEndpoints = may(req.role, 'branding');
  const pages = await Array.fromAsync(tools.client.statusPages.listAll());
  const show = async (status: number, notice: string | null, problem: string | null): Promise<ScreenAnswer> => {
    // One more than shown: whether a next page exists, without counting.
    const asked = part === 'list' ? listedFrom(query) : 0;
    const [counts, read] = store ? await Promise.all([store.countsByPage(), store.endpoints(ENDPOINTS_LISTED + 1, asked)]) : [new Map<string, PageSubscriberCounts>(), []];
    // Past the end (the last ones were removed meanwhile): the start, not an empty page.
    const from = store && read.length === 0 && asked > 0 ? 0 : asked;
    const listed = from === asked || !store ? read : await store.endpoints(ENDPOINTS_LISTED + 1, 0);
    const endpoints = listed.slice(0, ENDPOINTS_LISTED);
    return page(status, subscribersView(req.ctx, { pages, counts, endpoints, isAdmin, mayRemoveEndpoints, endpointsWindow: { from, hasMore: listed.length > ENDPOINTS_LISTED } }, notice, problem));
  };
  if (part === 'list') return show(200, null, null);
  if (part === 'remove-endpoint') {
    if (!mayRemoveEndpoints) return { refused: 'forbidden' };
    const found = store ? await store.get(req.form.get('id') ?? '') : null;
    if (!store || !found || found.channel === 'email') return show(404, null, req.ctx.i18n.t('console.endpointNotFound'));
    const target = endpointHost(found.endpointUrl);
    // The same call as `npx porchlight subscribers remove ID`.
    if (await store.remove(found.id)) await tools.audit('subscriber.remove', found.id, { channel: found.channel, target, pageId: found.pageId, state: found.state }, null);
    return show(200, req.ctx.i18n.t('console.endpointRemoved', { channel: channelName(req.ctx.i18n, found.channel), target }), null);
  }
  if (!isAdmin) return { refused: 'forbidden' };
  if (part === 'export') {
    const chosen = pages.find((p) => p.id === query.get('page'));
    if (!chosen) return { refused: 'not-found' };
    if (query.get('channels') === 'endpoints') {
      const endpoints = store ? (await Promise.all(SUBSCRIBER_CHANNELS.filter((channel) => channel !== 'email').map((channel) => store.ofPage(chosen.id, channel)))).flat() : [];
      endpoints.sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id));
      return { status: 200, body: endpointsCsv(endpoints, chosen.id), download: `webhooks-and-chats-${chosen.slug}.csv` };
    }
    return { status: 200, body: confirmedCsv(store ? await store.ofPage(chosen.id, 'email') : [], chosen.id), download: `subscribers-${chosen.slug}.csv` };
  }
  if (req.method !== 'POST') return { refused: 'not-found' };
  const email = parseEmailAddress(req.form.get('email'));
  const pageId = req.form.get('page') ?? '';
  if (!email || !store) return show(400, null, req.ctx.i18n.t('console.missingFields'));
  const found = (await store.find(email.address)).filter((s) => s.pageId === pageId && s.channel === 'email');
  if (found.length === 0) return show(404, null, req.ctx.i18n.t('console.subscriberNotFound'));
  for (const s of found) {
    if (await store.remove(s.id)) await tools.audit('subscriber.remove', s.id, { email: s.email, pageId: s.pageId, state: s.state }, null);
  }
  return show(200, req.ctx.i18n.t('console.subscriberRemoved', { email: email.address }), null);
}
