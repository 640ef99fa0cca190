/**
 * The page access screen ("Who can read this page"): an admin's, since it decides who reads a
 * non-public page, as adding operators decides who runs the site. It shows and changes the
 * page's mode and its ways in (invitation links, the shared passphrase, address ranges, the
 * OpenID Connect rule) and the viewers who hold access. Every change is one of the functions the
 * CLI calls too (src/audiences/access-changes.ts), audited with its values before and after
 * (never a secret). Every form is a plain POST (CSRF-checked by the handler), then a redirect;
 * only creating an invitation answers with a page, which shows its link this once.
 */
import type { StatusPage } from '../api/index.ts';
import { AccessChangeError, changeAccess, invitationDays, invitationUrl, invite, removeAudience, removeViewer, revokeInvitation, type AccessChange, type AccessProblem } from '../audiences/access-changes.ts';
import { ACCESS_MODES, type AccessMode, type AudienceStore, type Invitation, type PageAccess, type ViewerGrant } from '../audiences/store.ts';
import { PASSWORD_MIN_LENGTH } from '../auth/password.ts';
import type { Translator } from '../site/i18n/translator.ts';
import { html, trusted, type Html } from './html.ts';
import { consoleHref } from './paths.ts';
import { may } from './roles.ts';
import { apiProblem, page, slugTyped, type ScreenAnswer, type ScreenRequest, type ScreenTools } from './screen.ts';
import { csrfField, layout, problemLine, type ViewContext } from './views.ts';

export const PAGE_ACCESS_ACTIONS = ['mode', 'invite', 'revoke', 'passphrase', 'range-add', 'range-remove', 'oidc-rule', 'viewer-remove', 'remove-audience'] as const;
export type PageAccessAction = (typeof PAGE_ACCESS_ACTIONS)[number];

export const isPageAccessAction = (value: string): value is PageAccessAction => (PAGE_ACCESS_ACTIONS as readonly string[]).includes(value);

const PROBLEMS: Record<AccessProblem, (i18n: Translator) => string> = {
  'no-audience': (i18n) => i18n.t('console.access.errNoAudience'),
  'passphrase-short': (i18n) => i18n.t('console.access.errPassphrase', { min: PASSWORD_MIN_LENGTH }),
  'bad-range': (i18n) => i18n.t('console.access.errRange'),
  'no-oidc': (i18n) => i18n.t('console.access.oidcNone'),
  'no-rule': (i18n) => i18n.t('console.access.errRule'),
  'bad-label': (i18n) => i18n.t('console.access.errLabel'),
  'bad-expiry': (i18n) => i18n.t('console.access.errExpiry'),
  'unknown-invitation': (i18n) => i18n.t('console.access.errInvitation'),
  'unknown-viewer': (i18n) => i18n.t('console.access.errViewer'),
};

export const problemText = (i18n: Translator, code: AccessProblem): string => PROBLEMS[code](i18n);

export const accessHref = (pageId: string, action?: PageAccessAction) => consoleHref(`pages/${encodeURIComponent(pageId)}/access${action ? `/${action}` : ''}`);

export interface PageAccessState {
  page: StatusPage;
  access: PageAccess | null;
  invitations: readonly Invitation[];
  viewers: readonly ViewerGrant[];
  now: number;
}

/** What a POST's form asks of the page's settings, or null when the form is not one. */
export function accessChangeOf(action: PageAccessAction, form: URLSearchParams): AccessChange | null {
  if (action === 'mode') {
    const mode = ACCESS_MODES.find((candidate) => candidate === form.get('mode'));
    return mode ? { kind: 'mode', mode } : null;
  }
  if (action === 'passphrase') return form.get('intent') === 'clear' ? { kind: 'passphrase', passphrase: null } : { kind: 'passphrase', passphrase: form.get('passphrase') ?? '' };
  if (action === 'range-add') return { kind: 'add-range', range: form.get('range') ?? '' };
  if (action === 'range-remove') return { kind: 'remove-range', range: form.get('range') ?? '' };
  if (action === 'oidc-rule') return { kind: 'oidc-rule', emailDomains: form.get('domains') ?? '', claim: form.get('claim') ?? '' };
  return null;
}

function invitationState(i18n: Translator, invitation: Invitation, now: number): string {
  if (invitation.revokedAt !== null) return i18n.t('console.access.revoked');
  return invitation.expiresAt <= now ? i18n.t('console.access.expired') : i18n.t('console.access.valid');
}

const viaText = (i18n: Translator, via: ViewerGrant['via']) => i18n.t(via === 'invitation' ? 'console.access.viaInvitation' : via === 'passphrase' ? 'console.access.viaPassphrase' : 'console.access.viaOidc');

function postButton(ctx: ViewContext, action: string, fields: Record<string, string>, label: string): Html {
  return html`<form class="inline" method="post" action="${action}">${csrfField(ctx)}${Object.entries(fields).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)}<button type="submit" class="quiet">${label}</button></form>`;
}

function modeSection(ctx: ViewContext, s: PageAccessState): Html {
  const { i18n } = ctx;
  const current: AccessMode | null = s.access?.mode ?? null;
  const option = (mode: AccessMode, text: string) => html`<label class="check"><input type="radio" name="mode" value="${mode}"${current === mode || (current === null && mode === 'unlisted') ? trusted(' checked') : ''}> ${text}</label>`;
  return html`<h2>${i18n.t('console.access.mode')}</h2>${s.access ? '' : html`<p data-access="none">${i18n.t('console.access.noAudience')}</p>`}
<form method="post" action="${accessHref(s.page.id, 'mode')}">${csrfField(ctx)}<fieldset><legend>${i18n.t('console.access.mode')}</legend>
${option('unlisted', i18n.t('console.access.modeUnlisted'))}${option('sign-in-shown', i18n.t('console.access.modeSignInShown'))}</fieldset>
<button type="submit">${i18n.t('console.access.saveMode')}</button></form>`;
}

function invitationsSection(ctx: ViewContext, s: PageAccessState, shown: { label: string; url: string } | null): Html {
  const { i18n } = ctx;
  const rows = s.invitations.map((invitation) => html`<tr data-invitation="${invitation.id}"><td>${invitation.label}</td><td>${i18n.dateTime(new Date(invitation.expiresAt).toISOString())}</td><td>${invitationState(i18n, invitation, s.now)}</td>
<td>${invitation.revokedAt === null && invitation.expiresAt > s.now ? postButton(ctx, accessHref(s.page.id, 'revoke'), { invitation: invitation.id }, i18n.t('console.access.revoke')) : ''}</td></tr>`);
  return html`<h2>${i18n.t('console.access.invitations')}</h2>
${shown ? html`<div role="status"><p>${i18n.t('console.access.linkOnce', { label: shown.label })}</p><p><label for="invitation-link">${i18n.t('console.access.link')}</label><input id="invitation-link" type="text" readonly value="${shown.url}"></p></div>` : ''}
${rows.length ? html`<table><thead><tr><th scope="col">${i18n.t('console.access.label')}</th><th scope="col">${i18n.t('console.access.expires')}</th><th scope="col">${i18n.t('console.access.state')}</th><th scope="col">${i18n.t('console.actions')}</th></tr></thead><tbody>${rows}</tbody></table>` : html`<p>${i18n.t('console.access.noInvitations')}</p>`}
<form method="post" action="${accessHref(s.page.id, 'invite')}">${csrfField(ctx)}
<label for="invite-label">${i18n.t('console.access.label')}</label><input id="invite-label" name="label" type="text" required maxlength="200">
<label for="invite-days">${i18n.t('console.access.days')}</label><input id="invite-days" name="days" type="number" required min="1" max="365" value="7">
<button type="submit">${i18n.t('console.access.invite')}</button></form>`;
}

function passphraseSection(ctx: ViewContext, s: PageAccessState): Html {
  const { i18n } = ctx;
  const set = s.access?.passphraseHash != null;
  return html`<h2>${i18n.t('console.access.passphrase')}</h2><p data-passphrase="${set ? 'set' : 'none'}">${i18n.t(set ? 'console.access.passphraseSet' : 'console.access.passphraseNone')}</p>
<p class="muted">${i18n.t('console.access.passphraseNote')}</p>
<form method="post" action="${accessHref(s.page.id, 'passphrase')}">${csrfField(ctx)}
<label for="passphrase">${i18n.t('console.access.newPassphrase', { min: PASSWORD_MIN_LENGTH })}</label><input id="passphrase" name="passphrase" type="password" autocomplete="new-password" required minlength="${PASSWORD_MIN_LENGTH}" maxlength="256">
<button type="submit">${i18n.t('console.access.setPassphrase')}</button></form>
${set ? postButton(ctx, accessHref(s.page.id, 'passphrase'), { intent: 'clear' }, i18n.t('console.access.clearPassphrase')) : ''}`;
}

function rangesSection(ctx: ViewContext, s: PageAccessState): Html {
  const { i18n } = ctx;
  const cidrs = s.access?.cidrs ?? [];
  return html`<h2>${i18n.t('console.access.ranges')}</h2>
${cidrs.length ? html`<ul class="items">${cidrs.map((range) => html`<li><bdi dir="ltr">${range}</bdi> ${postButton(ctx, accessHref(s.page.id, 'range-remove'), { range }, i18n.t('console.access.removeRange', { range }))}</li>`)}</ul>` : html`<p>${i18n.t('console.access.noRanges')}</p>`}
<form method="post" action="${accessHref(s.page.id, 'range-add')}">${csrfField(ctx)}
<label for="range">${i18n.t('console.access.range')}</label><input id="range" name="range" type="text" required maxlength="64" dir="ltr" autocomplete="off">
<button type="submit">${i18n.t('console.access.addRange')}</button></form>`;
}

function oidcSection(ctx: ViewContext, s: PageAccessState): Html {
  const { i18n } = ctx;
  const oidc = s.access?.oidc ?? null;
  if (!oidc) return html`<h2>${i18n.t('console.access.oidc')}</h2><p>${i18n.t('console.access.oidcNone')}</p>`;
  return html`<h2>${i18n.t('console.access.oidc')}</h2><p>${i18n.t('console.access.oidcProvider', { issuer: oidc.issuer, client: oidc.clientId })}</p>
<p class="muted">${i18n.t('console.access.ruleNote')}</p>
<form method="post" action="${accessHref(s.page.id, 'oidc-rule')}">${csrfField(ctx)}
<label for="domains">${i18n.t('console.access.domains')}</label><input id="domains" name="domains" type="text" maxlength="1000" dir="ltr" value="${oidc.emailDomains.join(', ')}">
<label for="claim">${i18n.t('console.access.claim')}</label><input id="claim" name="claim" type="text" maxlength="300" dir="ltr" value="${oidc.claim ? `${oidc.claim.name}=${oidc.claim.value}` : ''}">
<button type="submit">${i18n.t('console.access.saveRule')}</button></form>`;
}

function viewersSection(ctx: ViewContext, s: PageAccessState): Html {
  const { i18n } = ctx;
  const rows = s.viewers.map((grant) => html`<tr data-viewer="${grant.viewerId}"><td><bdi>${grant.subject}</bdi><br><span class="muted">${grant.viewerId}</span></td><td>${viaText(i18n, grant.via)}${grant.live ? '' : html`<br><span class="muted">${i18n.t('console.access.ended')}</span>`}</td><td>${i18n.dateTime(new Date(grant.createdAt).toISOString())}</td>
<td>${postButton(ctx, accessHref(s.page.id, 'viewer-remove'), { viewer: grant.viewerId }, i18n.t('console.access.remove'))}</td></tr>`);
  return html`<h2>${i18n.t('console.access.viewers')}</h2>
${rows.length ? html`<table><thead><tr><th scope="col">${i18n.t('console.access.viewer')}</th><th scope="col">${i18n.t('console.access.via')}</th><th scope="col">${i18n.t('console.access.since')}</th><th scope="col">${i18n.t('console.actions')}</th></tr></thead><tbody>${rows}</tbody></table>` : html`<p>${i18n.t('console.access.noViewers')}</p>`}`;
}

/** Removing the whole audience asks for the page's slug, typed, as deleting a page does. */
function removeAudienceSection(ctx: ViewContext, s: PageAccessState): Html {
  const { i18n } = ctx;
  return html`<h2>${i18n.t('console.access.removeAudience')}</h2><p class="muted">${i18n.t('console.access.removeAudienceNote')}</p>
<form method="post" action="${accessHref(s.page.id, 'remove-audience')}">${csrfField(ctx)}
<label for="confirm-audience-slug">${i18n.t('console.access.removeAudienceHint', { slug: s.page.slug })}</label><input id="confirm-audience-slug" name="confirmSlug" type="text" required maxlength="64" autocomplete="off" dir="ltr">
<button type="submit">${i18n.t('console.access.removeAudience')}</button></form>`;
}

export function pageAccessView(ctx: ViewContext, s: PageAccessState, shown: { label: string; url: string } | null, problem: string | null): string {
  const { i18n } = ctx;
  const ways = s.access ? html`${invitationsSection(ctx, s, shown)}${passphraseSection(ctx, s)}${rangesSection(ctx, s)}${oidcSection(ctx, s)}${viewersSection(ctx, s)}${removeAudienceSection(ctx, s)}` : '';
  return layout(ctx, i18n.t('console.access.heading', { page: s.page.name }), html`${problemLine(problem)}
<p><a href="${consoleHref(`pages/${encodeURIComponent(s.page.id)}`)}">${s.page.name}</a></p>
${s.page.isPublic !== false ? html`<p class="muted">${i18n.t('console.access.publicNote')}</p>` : ''}
${modeSection(ctx, s)}${ways}`);
}

/** GET pages/ID/access and POST pages/ID/access/ACTION (admin). */
export async function pageAccessScreen(tools: ScreenTools, req: ScreenRequest, store: AudienceStore | null, pageId: string, action: PageAccessAction | null, siteOrigin: string, now: number): Promise<ScreenAnswer> {
  if (!may(req.role, 'operators')) return { refused: 'forbidden' };
  const { i18n } = req.ctx;
  let statusPage: StatusPage;
  try {
    statusPage = await tools.client.statusPages.get(pageId);
  } catch (error) {
    apiProblem(error);
    return { refused: 'not-found' };
  }
  if (!store) return page(503, layout(req.ctx, i18n.t('console.access.title'), html`${problemLine(i18n.t('console.access.storeUnavailable'))}`));
  const state = async (): Promise<PageAccessState> => ({ page: statusPage, access: await store.access(statusPage.id), invitations: await store.invitations(statusPage.id), viewers: await store.viewers(statusPage.id, now), now });
  const show = async (status: number, shown: { label: string; url: string } | null, problem: string | null) => page(status, pageAccessView(req.ctx, await state(), shown, problem));
  if (req.method === 'GET' || action === null) return req.method === 'GET' && action === null ? show(200, null, null) : { refused: 'not-found' };
  const back = { redirect: `pages/${encodeURIComponent(statusPage.id)}/access` };
  try {
    if (action === 'invite') {
      const expiresAt = now + invitationDays(req.form.get('days') ?? '');
      const made = await invite(store, statusPage.id, req.form.get('label') ?? '', expiresAt, now);
      await tools.audit('page-access.invite', statusPage.id, made.audit.before, made.audit.after);
      // Shown once, on this answer to the admin's POST (no-store); the store keeps no token.
      return show(200, { label: made.invitation.label, url: invitationUrl(siteOrigin, made.token) }, null);
    }
    if (action === 'revoke') {
      const revoked = await revokeInvitation(store, statusPage.id, req.form.get('invitation') ?? '', now);
      await tools.audit('page-access.revoke', statusPage.id, revoked.before, revoked.after);
      return back;
    }
    if (action === 'remove-audience') {
      if (!slugTyped(req.form, statusPage.slug)) return show(400, null, i18n.t('console.access.removeAudienceMismatch'));
      // The same call as `npx porchlight page-access remove`, audited under the same name.
      const removed = await removeAudience(store, statusPage.id);
      if (removed.removed) await tools.audit('page-access.remove', statusPage.id, removed.before, removed.after);
      return back;
    }
    if (action === 'viewer-remove') {
      const removed = await removeViewer(store, statusPage.id, req.form.get('viewer') ?? '', now);
      await tools.audit('page-access.remove-viewer', statusPage.id, removed.before, removed.after);
      return back;
    }
    const change = accessChangeOf(action, req.form);
    if (!change) return show(400, null, i18n.t('console.missingFields'));
    const values = await changeAccess(store, statusPage.id, change, now);
    await tools.audit(`page-access.${action}`, statusPage.id, values.before, values.after);
    return back;
  } catch (error) {
    if (!(error instanceof AccessChangeError)) throw error;
    return show(400, null, problemText(i18n, error.code));
  }
}
