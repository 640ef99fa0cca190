/**
 * The pages screen: the organization's status pages; a page's settings (name, slug, public or
 * not: an editor's), its custom domain (an admin's, as is creating a page) with the TLS gate's
 * verdict for it (the gate's own rule, certificate-eligibility.ts, applied to every page), and
 * its linked monitors in order, moved with buttons that are plain forms (no JavaScript).
 * Writes go through the API client; each is audited with the values before and after.
 */
import type { Monitor, StatusPage } from '../api/index.ts';
import { explainName, type NameExplanation } from '../site/view/certificate-eligibility.ts';
import type { Translator } from '../site/i18n/translator.ts';
import { html, trusted, type Html } from './html.ts';
import { addLink, linksInput, moveLink, orderedLinks, removeLink, type PageLink } from './page-links.ts';
import { consoleHref } from './paths.ts';
import { may } from './roles.ts';
import { apiProblem, page, slugTyped, type ScreenAnswer, type ScreenRequest, type ScreenTools } from './screen.ts';
import { csrfField, layout, problemLine, type ViewContext } from './views.ts';

const checked = (on: boolean) => (on ? trusted(' checked') : '');

export function tlsVerdictText(i18n: Translator, verdict: NameExplanation): string {
  if (verdict.allowed) return i18n.t('console.tlsAllowed');
  if (verdict.because === 'page-not-public') return i18n.t('console.tlsNotPublic');
  if (verdict.because === 'not-a-domain-name') return i18n.t('console.tlsNotDomain');
  return i18n.t('console.tlsUnclaimed');
}

export function pagesView(ctx: ViewContext, pages: readonly StatusPage[], canCreate: boolean, problem: string | null): string {
  const { i18n } = ctx;
  const rows = pages.map((p) => html`<tr><td><a href="${consoleHref(`pages/${encodeURIComponent(p.id)}`)}">${p.name}</a></td><td>/${p.slug}</td><td>${i18n.t(p.isPublic === false ? 'console.no' : 'console.yes')}</td><td>${p.customDomain ?? ''}</td></tr>`);
  const create = canCreate
    ? html`<h2>${i18n.t('console.createPage')}</h2><form method="post" action="${consoleHref('pages')}">${csrfField(ctx)}
<label for="name">${i18n.t('console.pageName')}</label><input id="name" name="name" type="text" required maxlength="100">
<label for="slug">${i18n.t('console.slug')}</label><input id="slug" name="slug" type="text" required maxlength="64" pattern="[a-z0-9]+(-[a-z0-9]+)*">
<label class="check"><input type="checkbox" name="isPublic" value="on" checked> ${i18n.t('console.isPublic')}</label>
<button type="submit">${i18n.t('console.createPage')}</button></form>`
    : '';
  return layout(ctx, i18n.t('console.navPages'), html`${problemLine(problem)}
${pages.length === 0 ? html`<p>${i18n.t('console.noPages')}</p>` : html`<table><thead><tr><th scope="col">${i18n.t('console.pageName')}</th><th scope="col">${i18n.t('console.slug')}</th><th scope="col">${i18n.t('console.isPublic')}</th><th scope="col">${i18n.t('console.customDomain')}</th></tr></thead><tbody>${rows}</tbody></table>`}
${create}`);
}

function linkedList(ctx: ViewContext, p: StatusPage, links: readonly PageLink[], names: ReadonlyMap<string, string>): Html {
  const { i18n } = ctx;
  const action = consoleHref(`pages/${encodeURIComponent(p.id)}/monitors`);
  const button = (intent: string, monitorId: string, label: string, disabled: boolean) =>
    html`<form class="inline" method="post" action="${action}">${csrfField(ctx)}<input type="hidden" name="intent" value="${intent}"><input type="hidden" name="monitor" value="${monitorId}"><button type="submit" class="quiet"${disabled ? trusted(' disabled') : ''}>${label}</button></form>`;
  return html`<ol class="items" aria-label="${i18n.t('console.linkedMonitors')}">${links.map((link, index) => {
    const name = link.displayName ?? names.get(link.monitorId) ?? link.monitorId;
    return html`<li data-monitor="${link.monitorId}"><strong>${name}</strong><br>${button('up', link.monitorId, i18n.t('console.moveUp'), index === 0)}${button('down', link.monitorId, i18n.t('console.moveDown'), index === links.length - 1)}${button('remove', link.monitorId, i18n.t('console.unlink'), false)}</li>`;
  })}</ol>`;
}

export function pageView(ctx: ViewContext, p: StatusPage, monitors: readonly Monitor[], verdict: NameExplanation | null, canDomain: boolean, problem: string | null): string {
  const { i18n } = ctx;
  const links = orderedLinks(p.monitors);
  const names = new Map(monitors.map((monitor) => [monitor.id, monitor.name]));
  const linked = new Set(links.map((link) => link.monitorId));
  const addable = monitors.filter((monitor) => !linked.has(monitor.id));
  const domainField = canDomain
    ? html`<label for="customDomain">${i18n.t('console.customDomain')}</label><input id="customDomain" name="customDomain" type="text" maxlength="253" value="${p.customDomain ?? ''}" aria-describedby="tls-verdict">`
    : html`<p><strong>${i18n.t('console.customDomain')}</strong>: ${p.customDomain ?? '–'}</p><p class="muted">${i18n.t('console.domainAdminOnly')}</p>`;
  return layout(ctx, p.name, html`${problemLine(problem)}<p><a href="${consoleHref('pages')}">${i18n.t('console.navPages')}</a></p>
<form method="post" action="${consoleHref(`pages/${encodeURIComponent(p.id)}`)}">${csrfField(ctx)}
<label for="name">${i18n.t('console.pageName')}</label><input id="name" name="name" type="text" required maxlength="100" value="${p.name}">
<label for="slug">${i18n.t('console.slug')}</label><input id="slug" name="slug" type="text" required maxlength="64" pattern="[a-z0-9]+(-[a-z0-9]+)*" value="${p.slug}">
<label class="check"><input type="checkbox" name="isPublic" value="on"${checked(p.isPublic !== false)}> ${i18n.t('console.isPublic')}</label>
${domainField}${verdict ? html`<p id="tls-verdict" data-verdict="${verdict.allowed ? 'allowed' : verdict.because}">${tlsVerdictText(i18n, verdict)}</p>` : html`<p id="tls-verdict" class="muted">${i18n.t('console.noDomain')}</p>`}
<button type="submit">${i18n.t('console.save')}</button></form>
<h2>${i18n.t('console.linkedMonitors')}</h2>
${links.length ? linkedList(ctx, p, links, names) : html`<p>${i18n.t('console.noMonitors')}</p>`}
${addable.length ? html`<form method="post" action="${consoleHref(`pages/${encodeURIComponent(p.id)}/monitors`)}">${csrfField(ctx)}<input type="hidden" name="intent" value="add">
<label for="add-monitor">${i18n.t('console.linkMonitor')}</label><select id="add-monitor" name="monitor">${addable.map((monitor) => html`<option value="${monitor.id}">${monitor.name}</option>`)}</select>
<button type="submit">${i18n.t('console.linkMonitor')}</button></form>` : ''}
${canDomain && p.isPublic === false ? html`<h2>${i18n.t('console.access.title')}</h2><p><a href="${consoleHref(`pages/${encodeURIComponent(p.id)}/access`)}">${i18n.t('console.access.title')}</a></p>` : ''}
${canDomain ? deleteForm(ctx, p) : ''}`);
}

/** An admin's: deleting asks for the page's slug, typed, so that no stray tap deletes a page. */
function deleteForm(ctx: ViewContext, p: StatusPage): Html {
  const { i18n } = ctx;
  return html`<h2>${i18n.t('console.deletePage')}</h2>
<form method="post" action="${consoleHref(`pages/${encodeURIComponent(p.id)}/delete`)}">${csrfField(ctx)}
<label for="confirm-slug">${i18n.t('console.deletePageHint', { slug: p.slug })}</label><input id="confirm-slug" name="confirmSlug" type="text" required maxlength="64" autocomplete="off">
<button type="submit">${i18n.t('console.deletePage')}</button></form>`;
}

const settingsOf = (p: StatusPage) => ({ name: p.name, slug: p.slug, isPublic: p.isPublic !== false, customDomain: p.customDomain ?? null });
const orderOf = (p: StatusPage) => orderedLinks(p.monitors).map((link) => link.monitorId);

/** GET/POST pages, GET/POST pages/ID, POST pages/ID/monitors, POST pages/ID/delete (admin). */
export async function pagesScreen(tools: ScreenTools, req: ScreenRequest, id: string | null, part: 'settings' | 'monitors' | 'delete'): Promise<ScreenAnswer> {
  const { client } = tools;
  const { i18n } = req.ctx;
  const isAdmin = may(req.role, 'operators');
  if (id === null) {
    const list = async () => Array.fromAsync(client.statusPages.listAll());
    if (req.method === 'GET') return page(200, pagesView(req.ctx, await list(), isAdmin, null));
    if (!isAdmin) return { refused: 'forbidden' };
    const name = (req.form.get('name') ?? '').trim();
    const slug = (req.form.get('slug') ?? '').trim();
    if (!name || !slug) return page(400, pagesView(req.ctx, await list(), isAdmin, i18n.t('console.missingFields')));
    try {
      const created = await client.statusPages.create({ name, slug, isPublic: req.form.get('isPublic') === 'on' });
      await tools.audit('page.create', created.id, null, settingsOf(created));
      return { redirect: `pages/${encodeURIComponent(created.id)}` };
    } catch (error) {
      return page(400, pagesView(req.ctx, await list(), isAdmin, i18n.t('console.problem', { reason: apiProblem(error) })));
    }
  }
  let current: StatusPage;
  try {
    current = await client.statusPages.get(id);
  } catch (error) {
    apiProblem(error);
    return { refused: 'not-found' };
  }
  const show = async (status: number, p: StatusPage, problem: string | null) => {
    const all = await Array.fromAsync(client.statusPages.listAll());
    const verdict = p.customDomain ? explainName(p.customDomain, all, tools.publicHostName) : null;
    return page(status, pageView(req.ctx, p, await Array.fromAsync(client.monitors.listAll()), verdict, isAdmin, problem));
  };
  if (req.method === 'GET') return show(200, current, null);
  if (part === 'delete') {
    if (!isAdmin) return { refused: 'forbidden' };
    if (!slugTyped(req.form, current.slug)) return show(400, current, i18n.t('console.deletePageMismatch'));
    try {
      await client.statusPages.delete(current.id);
      await tools.audit('page.delete', current.id, settingsOf(current), null);
      return { redirect: 'pages' };
    } catch (error) {
      return show(400, current, i18n.t('console.problem', { reason: apiProblem(error) }));
    }
  }
  if (!may(req.role, 'branding')) return { refused: 'forbidden' };
  if (part === 'monitors') {
    const monitorId = req.form.get('monitor') ?? '';
    const intent = req.form.get('intent');
    const links = orderedLinks(current.monitors);
    const next = intent === 'up' || intent === 'down' ? moveLink(links, monitorId, intent) : intent === 'add' ? addLink(links, monitorId) : intent === 'remove' ? removeLink(links, monitorId) : null;
    if (!next || !monitorId) return show(400, current, i18n.t('console.missingFields'));
    try {
      const updated = await client.statusPages.update(current.id, { monitors: linksInput(next) });
      await tools.audit('page.monitors', current.id, { monitors: orderOf(current) }, { monitors: orderOf(updated) });
      return { redirect: `pages/${encodeURIComponent(current.id)}` };
    } catch (error) {
      return show(400, current, i18n.t('console.problem', { reason: apiProblem(error) }));
    }
  }
  const name = (req.form.get('name') ?? '').trim();
  const slug = (req.form.get('slug') ?? '').trim();
  if (!name || !slug) return show(400, current, i18n.t('console.missingFields'));
  const domainField = req.form.get('customDomain');
  const domain = domainField === null ? undefined : domainField.trim() === '' ? null : domainField.trim();
  // The domain is an admin's: a form from an editor naming another one is refused whole.
  if (domain !== undefined && domain !== (current.customDomain ?? null) && !isAdmin) return { refused: 'forbidden' };
  try {
    const updated = await client.statusPages.update(current.id, { name, slug, isPublic: req.form.get('isPublic') === 'on', ...(domain !== undefined && isAdmin ? { customDomain: domain } : {}) });
    await tools.audit('page.settings', current.id, settingsOf(current), settingsOf(updated));
    return { redirect: `pages/${encodeURIComponent(current.id)}` };
  } catch (error) {
    return show(400, current, i18n.t('console.problem', { reason: apiProblem(error) }));
  }
}
