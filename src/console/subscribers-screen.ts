/**
 * The subscribers screen: how many confirmed and waiting subscribers each page has (every
 * operator), a page's confirmed e-mail addresses as a CSV download and the removal of one address
 * (an admin's: these are people's addresses). The store is Porchlight's own, opened on this thread
 * the way `npx porchlight subscribers` opens it (never through the subscriptions worker); a
 * removal is audited with the address before and nothing after.
 */
import type { StatusPage } from '../api/index.ts';
import { parseEmailAddress } from '../subscribers/email-address.ts';
import type { Subscriber, SubscriberStore } from '../subscribers/store.ts';
import { html } from './html.ts';
import { consoleHref } from './paths.ts';
import { may } from './roles.ts';
import { page, type ScreenAnswer, type ScreenRequest, type ScreenTools } from './screen.ts';
import { csrfField, layout, type ViewContext } from './views.ts';

export interface PageCounts {
  confirmed: number;
  pending: number;
}

/** Confirmed and waiting subscribers per page id (every channel; bouncing counts as confirmed: it still gets mail). */
export function countsByPage(subscribers: readonly Subscriber[]): Map<string, PageCounts> {
  const counts = new Map<string, PageCounts>();
  for (const s of subscribers) {
    const entry = counts.get(s.pageId) ?? { confirmed: 0, pending: 0 };
    if (s.state === 'pending') entry.pending += 1;
    else entry.confirmed += 1;
    counts.set(s.pageId, entry);
  }
  return counts;
}

const csvField = (value: string) => (/[",\r\n]/.test(value) || /^[=+\-@\t]/.test(value) ? `"${(/^[=+\-@\t]/.test(value) ? `'${value}` : value).replace(/"/g, '""')}"` : value);

/** A page's confirmed e-mail addresses as CSV (a formula-looking cell is defused). */
export function confirmedCsv(subscribers: readonly Subscriber[], pageId: string): string {
  const rows = subscribers.filter((s) => s.pageId === pageId && s.channel === 'email' && s.state !== 'pending').map((s) => [s.email, new Date(s.createdAt).toISOString(), s.locale ?? ''].map(csvField).join(','));
  return `email,subscribed_at,locale\r\n${rows.map((row) => `${row}\r\n`).join('')}`;
}

export function subscribersView(ctx: ViewContext, pages: readonly StatusPage[], counts: ReadonlyMap<string, PageCounts>, isAdmin: boolean, notice: string | null, problem: string | null): string {
  const { i18n } = ctx;
  const rows = pages.map((p) => {
    const count = counts.get(p.id) ?? { confirmed: 0, pending: 0 };
    return html`<tr><td>${p.name}</td><td>${count.confirmed}</td><td>${count.pending}</td>${isAdmin ? html`<td><a href="${consoleHref(`subscribers/export?page=${encodeURIComponent(p.id)}`)}" download="subscribers-${p.slug}.csv">${i18n.t('console.exportCsv')}</a></td>` : ''}</tr>`;
  });
  const removal = isAdmin
    ? html`<h2>${i18n.t('console.removeSubscriber')}</h2><form method="post" action="${consoleHref('subscribers/remove')}">${csrfField(ctx)}
<label for="sub-page">${i18n.t('console.page')}</label><select id="sub-page" name="page">${pages.map((p) => html`<option value="${p.id}">${p.name}</option>`)}</select>
<label for="sub-email">${i18n.t('console.email')}</label><input id="sub-email" name="email" type="email" required>
<button type="submit">${i18n.t('console.removeSubscriber')}</button></form>`
    : '';
  return layout(ctx, i18n.t('console.navSubscribers'), html`${problem ? html`<p class="problem" role="alert">${problem}</p>` : ''}${notice ? html`<p role="status">${notice}</p>` : ''}
<table><thead><tr><th scope="col">${i18n.t('console.page')}</th><th scope="col">${i18n.t('console.confirmed')}</th><th scope="col">${i18n.t('console.waiting')}</th>${isAdmin ? html`<th scope="col">${i18n.t('console.actions')}</th>` : ''}</tr></thead><tbody>${rows}</tbody></table>
${removal}`);
}

/** GET subscribers, GET subscribers/export?page=ID, POST subscribers/remove. */
export async function subscribersScreen(tools: ScreenTools, req: ScreenRequest, store: SubscriberStore | null, part: 'list' | 'export' | 'remove', query: URLSearchParams): Promise<ScreenAnswer> {
  const isAdmin = may(req.role, 'operators');
  const all = store ? await store.list() : [];
  const pages = await Array.fromAsync(tools.client.statusPages.listAll());
  const show = (status: number, notice: string | null, problem: string | null, list = all) => page(status, subscribersView(req.ctx, pages, countsByPage(list), isAdmin, notice, problem));
  if (part === 'list') return show(200, null, null);
  if (!isAdmin) return { refused: 'forbidden' };
  if (part === 'export') {
    const chosen = pages.find((p) => p.id === query.get('page'));
    if (!chosen) return { refused: 'not-found' };
    return { status: 200, body: confirmedCsv(all, chosen.id), download: `subscribers-${chosen.slug}.csv` };
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
  return show(200, req.ctx.i18n.t('console.subscriberRemoved', { email: email.address }), null, await store.list());
}
