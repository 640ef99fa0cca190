/**
 * The console's screens as HTML: plain forms that work without JavaScript (POST, then a redirect),
 * every text from the i18n catalogs in the operator's language (right-to-left included). These
 * functions only lay out what they are given; the handler decides everything.
 */
import type { Incident, MaintenanceWindow, Monitor, StatusPage } from '../api/index.ts';
import { INCIDENT_SEVERITIES, INCIDENT_STATUSES } from '../contract/index.ts';
import type { Translator } from '../site/i18n/translator.ts';
import { html, trusted, type Html } from './html.ts';
import { consoleHref } from './paths.ts';
import type { Operator } from './store.ts';
import type { AuditEntry } from './store.ts';
import { CONSOLE_CSS } from './style.ts';
import { CSRF_FIELD } from '../auth/csrf.ts';
import { ROLES, type Role } from './roles.ts';

export interface ViewContext {
  i18n: Translator;
  /** Signed in: the operator and the form token of their session. */
  operator: Operator | null;
  csrf: string;
}

const roleLabel = (i18n: Translator, role: Role) => i18n.t(`console.role${role[0]?.toUpperCase()}${role.slice(1)}` as 'console.roleViewer');

export function layout(ctx: ViewContext, title: string, body: Html): string {
  const { i18n, operator } = ctx;
  const nav = operator
    ? html`<nav aria-label="${i18n.t('console.title')}"><ul>
<li><a href="${consoleHref('')}">${i18n.t('console.navHome')}</a></li>
<li><a href="${consoleHref('incidents/new')}">${i18n.t('console.newIncident')}</a></li>
<li><a href="${consoleHref('maintenance/new')}">${i18n.t('console.newMaintenance')}</a></li>
<li><a href="${consoleHref('branding')}">${i18n.t('console.navBranding')}</a></li>
<li><a href="${consoleHref('theming')}">${i18n.t('console.theming.nav')}</a></li>
<li><a href="${consoleHref('audit')}">${i18n.t('console.navAudit')}</a></li>
<li><a href="${consoleHref('operators')}">${i18n.t('console.navOperators')}</a></li>
<li><a href="${consoleHref('pages')}">${i18n.t('console.navPages')}</a></li>
<li><a href="${consoleHref('monitors')}">${i18n.t('console.navMonitors')}</a></li>
<li><a href="${consoleHref('subscribers')}">${i18n.t('console.navSubscribers')}</a></li>
<li><a href="${consoleHref('passkeys')}">${i18n.t('console.passkeys.nav')}</a></li>
</ul></nav>
<p>${i18n.t('console.signedInAs', { email: operator.email, role: roleLabel(i18n, operator.role) })}</p>
<form class="inline" method="post" action="${consoleHref('sign-out')}">${csrfField(ctx)}<button class="quiet" type="submit">${i18n.t('console.signOut')}</button></form>
<form class="inline" method="post" action="${consoleHref('sign-out-everywhere')}">${csrfField(ctx)}<button class="quiet" type="submit">${i18n.t('console.signOutEverywhere')}</button></form>`
    : '';
  return `<!doctype html>${html`<html lang="${i18n.locale}" dir="${i18n.dir}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex,nofollow"><meta name="referrer" content="same-origin"><title>${title} · ${i18n.t('console.title')}</title><style>${trusted(CONSOLE_CSS)}</style></head>
<body><a class="skip" href="#main">${i18n.t('layout.skip')}</a><header><p><strong>Porchlight · ${i18n.t('console.title')}</strong></p>${nav}</header>
<main id="main"><h1>${title}</h1>${body}</main></body></html>`.text}`;
}

export function csrfField(ctx: Pick<ViewContext, 'csrf'>): Html {
  return html`<input type="hidden" name="${CSRF_FIELD}" value="${ctx.csrf}">`;
}

/** A refusal's sentence on a screen, announced to assistive technology; nothing without one. */
export const problemLine = (problem: string | null): Html | string => (problem ? html`<p class="problem" role="alert">${problem}</p>` : '');

/** `extra`: what follows the password form (the passkey option, passkeys-view.ts, where there is one). */
export function signInView(ctx: ViewContext, email: string, problem: string | null, extra: Html | string = ''): string {
  const { i18n } = ctx;
  return layout(ctx, i18n.t('console.signInHeading'), html`${problemLine(problem)}<form method="post" action="${consoleHref('sign-in')}">${csrfField(ctx)}
<label for="email">${i18n.t('console.email')}</label><input id="email" name="email" type="email" autocomplete="username" required value="${email}">
<label for="password">${i18n.t('console.password')}</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">${i18n.t('console.signIn')}</button></form>${extra}`);
}

export function setupView(ctx: ViewContext, token: string, email: string, problem: string | null): string {
  const { i18n } = ctx;
  return layout(ctx, i18n.t('console.setupHeading'), html`<p>${email}</p>${problemLine(problem)}<form method="post" action="${consoleHref('setup')}">${csrfField(ctx)}
<input type="hidden" name="t" value="${token}"><input type="hidden" name="username" value="${email}" autocomplete="username">
<label for="password">${i18n.t('console.password')}</label><p id="password-hint" class="muted">${i18n.t('console.setupHint')}</p>
<input id="password" name="password" type="password" autocomplete="new-password" minlength="12" maxlength="256" required aria-describedby="password-hint">
<button type="submit">${i18n.t('console.setupSubmit')}</button></form>`);
}

export function messageView(ctx: ViewContext, title: string, text: string): string {
  return layout(ctx, title, html`<p>${text}</p><p><a href="${consoleHref('')}">${ctx.i18n.t('console.navHome')}</a></p>`);
}

export function homeView(ctx: ViewContext, incidents: readonly Incident[], maintenance: readonly MaintenanceWindow[]): string {
  const { i18n } = ctx;
  const incidentItems = incidents.map((incident) => html`<li><a href="${consoleHref(`incidents/${encodeURIComponent(incident.id)}`)}">${incident.title}</a> <span class="muted">${i18n.t(`severity.${incident.severity}` as 'severity.minor')} · ${statusLabel(i18n, incident.status)}</span></li>`);
  const windowItems = maintenance.map((window) => html`<li><a href="${consoleHref(`maintenance/${encodeURIComponent(window.id)}`)}">${window.title}</a> <span class="muted">${i18n.dateTime(window.scheduledStart)} – ${i18n.dateTime(window.scheduledEnd)}</span></li>`);
  return layout(ctx, i18n.t('console.navHome'), html`<h2>${i18n.t('console.activeIncidents')}</h2>
${incidentItems.length ? html`<ul class="items">${incidentItems}</ul>` : html`<p>${i18n.t('console.noIncidents')}</p>`}
<p><a href="${consoleHref('incidents/new')}">${i18n.t('console.newIncident')}</a></p>
<h2>${i18n.t('console.scheduled')}</h2>
${windowItems.length ? html`<ul class="items">${windowItems}</ul>` : html`<p>${i18n.t('console.noMaintenance')}</p>`}
<p><a href="${consoleHref('maintenance/new')}">${i18n.t('console.newMaintenance')}</a></p>`);
}

function statusLabel(i18n: Translator, status: string): string {
  return (INCIDENT_STATUSES as readonly string[]).includes(status) ? i18n.t(`incident.${status}` as 'incident.resolved') : status;
}

export interface IncidentDraft {
  template: string | null;
  title: string;
  severity: string;
  status: string;
  message: string;
  monitorIds: readonly string[];
  vars: ReadonlyMap<string, string>;
}

/** What the public page will show: the same labels, in the page's language. */
export function previewBox(ctx: ViewContext, page: Translator, draft: Pick<IncidentDraft, 'title' | 'severity' | 'status' | 'message'>, monitorNames: readonly string[]): Html {
  const severity = (INCIDENT_SEVERITIES as readonly string[]).includes(draft.severity) ? page.t(`severity.${draft.severity}` as 'severity.minor') : draft.severity;
  return html`<section class="preview" aria-labelledby="preview-heading"><h2 id="preview-heading">${ctx.i18n.t('console.previewHeading')}</h2>
<p><strong>${draft.title}</strong></p><p>${page.t('incident.severityPrefix')} ${severity} · ${page.t('incident.statusPrefix')} ${statusLabel(page, draft.status)}</p>
${monitorNames.length ? html`<p>${page.list(monitorNames)}</p>` : ''}<p>${draft.message}</p></section>`;
}

function options(values: readonly string[], chosen: string, label: (value: string) => string): Html[] {
  return values.map((value) => html`<option value="${value}"${value === chosen ? trusted(' selected') : ''}>${label(value)}</option>`);
}

function monitorChecks(ctx: ViewContext, monitors: readonly Monitor[], chosen: readonly string[]): Html {
  const picked = new Set(chosen);
  return html`<fieldset><legend>${ctx.i18n.t('console.monitors')}</legend>${monitors.map((monitor) => html`<label class="check"><input type="checkbox" name="monitor" value="${monitor.id}"${picked.has(monitor.id) ? trusted(' checked') : ''}> ${monitor.name}</label>`)}</fieldset>`;
}

export function incidentFormView(ctx: ViewContext, templates: readonly string[], draft: IncidentDraft, placeholders: readonly string[], monitors: readonly Monitor[], preview: Html | null, problem: string | null): string {
  const { i18n } = ctx;
  const templateLinks = templates.map((name) => html`<li><a href="${consoleHref(`incidents/new?template=${encodeURIComponent(name)}`)}">${name}</a></li>`);
  return layout(ctx, i18n.t('console.newIncident'), html`${problemLine(problem)}${preview ?? ''}
${templates.length ? html`<h2>${i18n.t('console.fromTemplate')}</h2><ul>${templateLinks}</ul><p><a href="${consoleHref('incidents/new')}">${i18n.t('console.fromScratch')}</a></p>` : ''}
<form method="post" action="${consoleHref('incidents')}">${csrfField(ctx)}${draft.template ? html`<input type="hidden" name="template" value="${draft.template}">` : ''}
${placeholders.map((name) => html`<label for="var-${name}">${i18n.t('console.variable', { name })}</label><input id="var-${name}" name="var_${name}" type="text" required value="${draft.vars.get(name) ?? ''}">`)}
<label for="title">${i18n.t('console.incidentTitle')}</label><input id="title" name="title" type="text" required maxlength="200" value="${draft.title}">
<label for="severity">${i18n.t('console.severity')}</label><select id="severity" name="severity">${options(INCIDENT_SEVERITIES, draft.severity, (s) => i18n.t(`severity.${s}` as 'severity.minor'))}</select>
<label for="status">${i18n.t('console.status')}</label><select id="status" name="status">${options(INCIDENT_STATUSES.filter((s) => s !== 'resolved'), draft.status, (s) => statusLabel(i18n, s))}</select>
${monitorChecks(ctx, monitors, draft.monitorIds)}
<label for="message">${i18n.t('console.message')}</label><textarea id="message" name="message" required maxlength="10000">${draft.message}</textarea>
<button type="submit" name="intent" value="preview" class="quiet">${i18n.t('console.preview')}</button><button type="submit" name="intent" value="publish">${i18n.t('console.publish')}</button></form>`);
}

export function incidentView(ctx: ViewContext, incident: Incident, draft: { status: string; message: string }, preview: Html | null, problem: string | null): string {
  const { i18n } = ctx;
  const updates = [...incident.updates].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  return layout(ctx, incident.title, html`<p>${i18n.t(`severity.${incident.severity}` as 'severity.minor')} · ${statusLabel(i18n, incident.status)}</p>
${incident.monitors.length ? html`<p>${i18n.list(incident.monitors.map(({ monitor }) => monitor.name))}</p>` : ''}
${problemLine(problem)}${preview ?? ''}
<h2>${i18n.t('console.postUpdate')}</h2>
<form method="post" action="${consoleHref(`incidents/${encodeURIComponent(incident.id)}`)}">${csrfField(ctx)}
<label for="status">${i18n.t('console.status')}</label><select id="status" name="status">${options(INCIDENT_STATUSES, draft.status, (s) => statusLabel(i18n, s))}</select>
<label for="message">${i18n.t('console.message')}</label><textarea id="message" name="message" required maxlength="10000">${draft.message}</textarea>
<button type="submit" name="intent" value="preview" class="quiet">${i18n.t('console.preview')}</button><button type="submit" name="intent" value="publish">${i18n.t('console.publish')}</button></form>
<ul class="items">${updates.map((update) => html`<li><span class="muted">${i18n.dateTime(update.createdAt)} · ${statusLabel(i18n, update.status)}</span><br>${update.message}</li>`)}</ul>`);
}

export interface MaintenanceDraft {
  title: string;
  description: string;
  start: string;
  end: string;
  monitorIds: readonly string[];
}

export function maintenanceFormView(ctx: ViewContext, window: MaintenanceWindow | null, draft: MaintenanceDraft, monitors: readonly Monitor[], problem: string | null): string {
  const { i18n } = ctx;
  const action = window ? consoleHref(`maintenance/${encodeURIComponent(window.id)}`) : consoleHref('maintenance');
  return layout(ctx, window ? window.title : i18n.t('console.newMaintenance'), html`${problemLine(problem)}
<form method="post" action="${action}">${csrfField(ctx)}
<label for="title">${i18n.t('console.incidentTitle')}</label><input id="title" name="title" type="text" required maxlength="200" value="${draft.title}">
<label for="start">${i18n.t('console.startsUtc')}</label><input id="start" name="start" type="datetime-local" required value="${draft.start}">
<label for="end">${i18n.t('console.endsUtc')}</label><input id="end" name="end" type="datetime-local" required value="${draft.end}">
${monitorChecks(ctx, monitors, draft.monitorIds)}
<label for="description">${i18n.t('console.description')}</label><textarea id="description" name="description" maxlength="10000">${draft.description}</textarea>
<button type="submit">${i18n.t('console.save')}</button></form>
${window && window.status === 'scheduled' ? html`<form method="post" action="${consoleHref(`maintenance/${encodeURIComponent(window.id)}/cancel`)}">${csrfField(ctx)}<button type="submit" class="quiet">${i18n.t('console.cancelMaintenance')}</button></form>` : ''}`);
}

export function brandingView(ctx: ViewContext, pages: readonly StatusPage[], problem: string | null): string {
  const { i18n } = ctx;
  return layout(ctx, i18n.t('console.navBranding'), html`${problemLine(problem)}${pages.map((page) => html`<form method="post" action="${consoleHref('branding')}">${csrfField(ctx)}<h2>${page.name}</h2>
<input type="hidden" name="page" value="${page.id}"><label for="color-${page.id}">${i18n.t('console.brandColor')}</label>
<input id="color-${page.id}" name="brandColor" type="text" pattern="#[0-9a-fA-F]{6}" required value="${page.brandColor ?? ''}"><button type="submit">${i18n.t('console.save')}</button></form>`)}`);
}

export function auditView(ctx: ViewContext, entries: readonly AuditEntry[]): string {
  const { i18n } = ctx;
  const short = (value: unknown) => (value === null || value === undefined ? '' : JSON.stringify(value).slice(0, 400));
  return layout(ctx, i18n.t('console.navAudit'), html`<table><thead><tr><th scope="col">${i18n.t('console.auditWhen')}</th><th scope="col">${i18n.t('console.auditWho')}</th><th scope="col">${i18n.t('console.auditWhat')}</th><th scope="col">${i18n.t('console.auditBefore')}</th><th scope="col">${i18n.t('console.auditAfter')}</th></tr></thead><tbody>
${entries.map((entry) => html`<tr><td>${new Date(entry.at).toISOString()}</td><td>${entry.actor}</td><td>${entry.action} ${entry.target}</td><td>${short(entry.before)}</td><td>${short(entry.after)}</td></tr>`)}</tbody></table>`);
}

export function operatorsView(ctx: ViewContext, operators: readonly Operator[], added: { email: string; link: string } | null, problem: string | null, rowActions?: (operator: Operator) => Html): string {
  const { i18n } = ctx;
  return layout(ctx, i18n.t('console.navOperators'), html`${problemLine(problem)}${added ? html`<p role="status">${i18n.t('console.setupLinkFor', { email: added.email })}<br><code>${added.link}</code></p>` : ''}
<table><thead><tr><th scope="col">${i18n.t('console.email')}</th><th scope="col">${i18n.t('console.role')}</th>${rowActions ? html`<th scope="col">${i18n.t('console.actions')}</th>` : ''}</tr></thead><tbody>
${operators.map((operator) => html`<tr><td>${operator.email}</td><td>${roleLabel(i18n, operator.role)}</td>${rowActions ? html`<td>${rowActions(operator)}</td>` : ''}</tr>`)}</tbody></table>
<h2>${i18n.t('console.addOperator')}</h2>
<form method="post" action="${consoleHref('operators')}">${csrfField(ctx)}
<label for="email">${i18n.t('console.email')}</label><input id="email" name="email" type="email" required>
<label for="role">${i18n.t('console.role')}</label><select id="role" name="role">${options(ROLES, 'responder', (role) => roleLabel(i18n, role as Role))}</select>
<button type="submit">${i18n.t('console.addOperator')}</button></form>`);
}
