/**
 * The passkey screens' HTML: the signed-in operator's "Your passkeys" screen and the passkey part
 * of the sign-in screen. The ceremony's forms start hidden and are shown by the console's script
 * (passkey-script.ts); without it a sentence says passkeys need JavaScript. Removing a passkey is a
 * plain form. Laid out only; passkey-routes.ts decides.
 */
import { html, type Html } from './html.ts';
import { ANSWER_FIELD, LABEL_MAX } from './passkey-forms.ts';
import { PASSKEY_SCRIPT_PATH } from './passkey-script.ts';
import type { Passkey } from './passkey-store.ts';
import { consoleHref } from './paths.ts';
import { csrfField, layout, problemLine, type ViewContext } from './views.ts';

const script = () => html`<script src="${consoleHref(PASSKEY_SCRIPT_PATH)}" defer></script>`;

/** The hidden ceremony form: the script shows it, fetches `options`, fills `response` and submits. */
function ceremonyForm(ctx: ViewContext, kind: 'register' | 'sign-in', action: string, options: string, fields: Html | string, submit: string): Html {
  const { i18n } = ctx;
  return html`<p class="muted" data-passkey-needs-js>${i18n.t('console.passkeys.needsJs')}</p>
<form method="post" action="${consoleHref(action)}" data-passkey="${kind}" data-options="${consoleHref(options)}" data-failed="${i18n.t('console.passkeys.failed')}" hidden>${csrfField(ctx)}
${fields}<input type="hidden" name="${ANSWER_FIELD}" value=""><button type="submit">${submit}</button>
<p role="status" class="problem" data-passkey-status></p></form>`;
}

/** The part of the sign-in screen below the password form (only where a relying party exists). */
export function signInPasskeyPart(ctx: ViewContext): Html {
  const { i18n } = ctx;
  return html`<h2>${i18n.t('console.passkeys.signIn')}</h2>${ceremonyForm(ctx, 'sign-in', 'sign-in/passkey', 'sign-in/passkey-options', '', i18n.t('console.passkeys.signIn'))}${script()}`;
}

const when = (ctx: ViewContext, at: number | null) => (at === null ? ctx.i18n.t('console.passkeys.never') : ctx.i18n.dateTime(new Date(at).toISOString()));

/** "Your passkeys": the list with a removal form per passkey, and registration when `canRegister`. */
export function passkeysView(ctx: ViewContext, passkeys: readonly Passkey[], canRegister: boolean, problem: string | null): string {
  const { i18n } = ctx;
  const rows = passkeys.map((key) => {
    const name = key.label || key.credentialId.slice(0, 12);
    return html`<tr><td>${name}</td><td>${when(ctx, key.createdAt)}</td><td>${when(ctx, key.lastUsedAt)}</td><td><form class="inline" method="post" action="${consoleHref('passkeys/remove')}">${csrfField(ctx)}<input type="hidden" name="credential" value="${key.credentialId}"><button class="quiet" type="submit">${i18n.t('console.passkeys.remove', { label: name })}</button></form></td></tr>`;
  });
  const list = rows.length
    ? html`<table><thead><tr><th scope="col">${i18n.t('console.passkeys.name')}</th><th scope="col">${i18n.t('console.passkeys.created')}</th><th scope="col">${i18n.t('console.passkeys.lastUsed')}</th><th scope="col">${i18n.t('console.actions')}</th></tr></thead><tbody>${rows}</tbody></table>`
    : html`<p>${i18n.t('console.passkeys.none')}</p>`;
  const register = canRegister
    ? html`<h2>${i18n.t('console.passkeys.register')}</h2>${ceremonyForm(ctx, 'register', 'passkeys', 'passkeys/options', html`<label for="passkey-label">${i18n.t('console.passkeys.label')}</label><input id="passkey-label" name="label" type="text" required maxlength="${LABEL_MAX}" autocomplete="off">`, i18n.t('console.passkeys.register'))}${script()}`
    : html`<p>${i18n.t('console.passkeys.unavailable')}</p>`;
  return layout(ctx, i18n.t('console.passkeys.nav'), html`<p>${i18n.t('console.passkeys.intro')}</p>${problemLine(problem)}${list}${register}`);
}
