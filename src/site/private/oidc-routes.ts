/**
 * Sign-in through the organization's OpenID Connect provider, for a page whose settings name one
 * (docs/private-pages.md). Not built yet: every OpenID Connect route gives the visitor the
 * "sign-in did not work" page, and never access.
 */
import type { Visit } from './private-access.ts';
import { PRIVATE_HEADERS } from './private-access.ts';
import { privatePageHtml, SIGN_IN_STYLE_HASH } from './sign-in-page.ts';

const OIDC = /^\/_porchlight\/private\/([a-z0-9]+(?:-[a-z0-9]+)*)\/oidc(?:\/callback)?$/;

export async function oidcRoute(visit: Visit, path: string): Promise<{ kind: 'answer'; response: Response } | null> {
  if (!OIDC.test(path)) return null;
  const i18n = visit.context.locals.i18n;
  visit.context.locals.cspStyles.push(SIGN_IN_STYLE_HASH);
  const html = privatePageHtml({ kind: 'message', title: i18n.t('private.signInFailedTitle'), body: i18n.t('private.signInFailedBody'), link: null }, i18n);
  return { kind: 'answer', response: new Response(html, { status: 502, headers: { 'content-type': 'text/html; charset=utf-8', ...PRIVATE_HEADERS } }) };
}
