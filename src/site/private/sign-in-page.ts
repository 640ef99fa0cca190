/**
 * The small pages of the way into a page with an audience: sign-in, the answer to an invitation,
 * refusals, the viewer's feed addresses. Plain HTML in the visitor's language (`lang`, `dir`),
 * every value escaped, forms that work without JavaScript, one constant stylesheet (allowed by its
 * hash). They name nothing of the page: not its name, monitors or status.
 */
import { escapeMarkup } from '../lib/markup.ts';
import type { Translator } from '../i18n/translator.ts';
import { sha256Source } from '../security/csp.ts';
import { CSRF_FIELD } from '../../auth/csrf.ts';

export const SIGN_IN_STYLE = [
  'body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#f6f7f9;color:#1b1f24}',
  'main{max-width:28rem;margin:4rem auto;padding:2rem;background:#fff;border:1px solid #d0d7de;border-radius:8px}',
  'h1{font-size:1.4rem;margin:0 0 1rem}',
  'label{display:block;font-weight:600;margin:1rem 0 .25rem}',
  'input[type=password]{width:100%;box-sizing:border-box;padding:.5rem;font:inherit;border:1px solid #57606a;border-radius:4px}',
  'button,a.button{display:inline-block;margin-top:1rem;padding:.6rem 1rem;font:inherit;border:0;border-radius:4px;background:#0a58ca;color:#fff;text-decoration:none;cursor:pointer}',
  '.alert{padding:.75rem;border-radius:4px;background:#fff1f0;border:1px solid #a40e26;color:#a40e26}',
  'code{word-break:break-all}',
  'hr{border:0;border-top:1px solid #d0d7de;margin:1.5rem 0}',
  '@media (prefers-color-scheme:dark){body{background:#0d1117;color:#e6edf3}main{background:#161b22;border-color:#30363d}input[type=password]{background:#0d1117;color:#e6edf3;border-color:#8b949e}.alert{background:#2d1214;color:#ffb3b8;border-color:#ffb3b8}a{color:#79c0ff}}',
].join('');

export const SIGN_IN_STYLE_HASH = sha256Source(SIGN_IN_STYLE);

export type PrivatePageBody =
  | { kind: 'sign-in'; action: string; oidcAction: string; csrf: string; error: string | null }
  | { kind: 'message'; title: string; body: string; link: { href: string; text: string } | null }
  | { kind: 'feeds'; action: string; csrf: string; addresses: { label: string; url: string }[] };

function form(action: string, csrf: string, inner: string): string {
  return `<form method="post" action="${escapeMarkup(action)}"><input type="hidden" name="${CSRF_FIELD}" value="${escapeMarkup(csrf)}">${inner}</form>`;
}

function content(body: PrivatePageBody, i18n: Translator): { title: string; html: string } {
  if (body.kind === 'message') {
    const link = body.link ? `<p><a class="button" href="${escapeMarkup(body.link.href)}">${escapeMarkup(body.link.text)}</a></p>` : '';
    return { title: body.title, html: `${body.body ? `<p>${escapeMarkup(body.body)}</p>` : ""}${link}` };
  }
  if (body.kind === 'feeds') {
    const list = body.addresses.length === 0
      ? form(body.action, body.csrf, `<button type="submit">${escapeMarkup(i18n.t('private.feedsButton'))}</button>`)
      : `<dl>${body.addresses.map((address) => `<dt>${escapeMarkup(address.label)}</dt><dd><code>${escapeMarkup(address.url)}</code></dd>`).join('')}</dl>`;
    return { title: i18n.t('private.feedsTitle'), html: `<p>${escapeMarkup(i18n.t('private.feedsIntro'))}</p>${list}` };
  }
  const error = body.error ? `<p class="alert" role="alert">${escapeMarkup(body.error)}</p>` : '';
  const passphrase = form(
    body.action,
    body.csrf,
    `<label for="passphrase">${escapeMarkup(i18n.t('private.passphraseLabel'))}</label><input id="passphrase" name="passphrase" type="password" autocomplete="current-password" required maxlength="1024"><button type="submit">${escapeMarkup(i18n.t('private.signInButton'))}</button>`,
  );
  const oidc = form(body.oidcAction, body.csrf, `<button type="submit">${escapeMarkup(i18n.t('private.oidcButton'))}</button>`);
  return { title: i18n.t('private.signInTitle'), html: `<p>${escapeMarkup(i18n.t('private.signInIntro'))}</p>${error}${passphrase}<hr>${oidc}` };
}

/** The whole document. `refresh`: a same-site address to go on to at once (after an invitation). */
export function privatePageHtml(body: PrivatePageBody, i18n: Translator, refresh: string | null = null): string {
  const { title, html } = content(body, i18n);
  const meta = refresh ? `<meta http-equiv="refresh" content="0;url=${escapeMarkup(refresh)}">` : '';
  return `<!doctype html><html lang="${escapeMarkup(i18n.locale)}" dir="${i18n.dir}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex">${meta}<title>${escapeMarkup(title)}</title><style>${SIGN_IN_STYLE}</style></head><body><main><h1>${escapeMarkup(title)}</h1>${html}</main></body></html>`;
}
