/**
 * Sign-in through the organization's OpenID Connect provider (docs/private-pages.md), with
 * `openid-client`: authorization code with PKCE (S256), state and nonce, the issuer checked at
 * discovery and in the ID token, the ID token's signature checked against the provider's JWKS.
 * The sign-in under way is kept in the audiences store (found by the state's hash, bound to this
 * browser by a short-lived cookie, taken once). Anything wrong — an unreachable discovery, another
 * issuer, a token signed with another key, an expired or replayed state — gives the visitor the
 * "sign-in did not work" page and the operator one log line; never access, never a stack trace.
 */
import * as oidc from 'openid-client';
import { randomToken } from '../../audiences/tokens.ts';
import { PRIVATE_PREFIX, viewerCookieName } from '../../audiences/gated-routes.ts';
import type { OidcSettings } from '../../audiences/store.ts';
import { readCookie } from '../../auth/session-cookie.ts';
import { createLogger, reasonOf } from '../../logging/logger.ts';
import { audienceBook, type GatedPage } from './audience-book.ts';
import { claimsAllowed } from './oidc-claims.ts';
import { admit, postIsOurs, privatePage, readForm, siteOrigin, type Visit } from './private-access.ts';

const START = /^\/_porchlight\/private\/([a-z0-9]+(?:-[a-z0-9]+)*)\/oidc$/;
const CALLBACK = /^\/_porchlight\/private\/([a-z0-9]+(?:-[a-z0-9]+)*)\/oidc\/callback$/;
const DISCOVERY_TIMEOUT_SECONDS = 5;
/** A provider's metadata is read again after this long (or after a failure). */
const DISCOVERY_TTL_MS = 10 * 60_000;
const log = createLogger('audiences');

type Answer = { kind: 'answer'; response: Response };

const discovered = new Map<string, { at: number; config: Promise<oidc.Configuration> }>();

function isLoopbackUrl(url: URL): boolean {
  return url.hostname === 'localhost' || url.hostname === '[::1]' || /^127\./.test(url.hostname);
}

/** The provider's configuration, discovered once per issuer and client for a while. */
function configuration(settings: OidcSettings): Promise<oidc.Configuration> {
  const key = JSON.stringify([settings.issuer, settings.clientId, settings.clientSecret]);
  const known = discovered.get(key);
  if (known && Date.now() - known.at < DISCOVERY_TTL_MS) return known.config;
  const issuer = new URL(settings.issuer);
  // Plain HTTP only for a provider on this machine (tests, development); anything else is HTTPS.
  const insecure = issuer.protocol === 'http:' && isLoopbackUrl(issuer);
  const config = oidc.discovery(issuer, settings.clientId, settings.clientSecret, undefined, {
    timeout: DISCOVERY_TIMEOUT_SECONDS,
    ...(insecure ? { execute: [oidc.allowInsecureRequests] } : {}),
  }).then((found) => {
    // Check the ID token's signature with the provider's keys too, not only TLS to its token endpoint.
    oidc.enableNonRepudiationChecks(found);
    return found;
  });
  discovered.set(key, { at: Date.now(), config });
  config.catch(() => discovered.delete(key));
  return config;
}

function browserCookieName(visit: Visit): string {
  return viewerCookieName(visit.secure).replace('viewer', 'oidc');
}

/** Lax, not Strict: the provider's redirect back is a navigation from another site. */
function browserCookie(visit: Visit, value: string, maxAge: number): string {
  return [`${browserCookieName(visit)}=${value}`, `Max-Age=${maxAge}`, 'Path=/', 'HttpOnly', 'SameSite=Lax', ...(visit.secure ? ['Secure'] : [])].join('; ');
}

function failed(visit: Visit, status: number, notAllowed = false): Answer {
  const i18n = visit.context.locals.i18n;
  return { kind: 'answer', response: privatePage(visit, status, { kind: 'message', title: i18n.t('private.signInFailedTitle'), body: notAllowed ? i18n.t('private.notAllowedBody') : i18n.t('private.signInFailedBody'), link: null }) };
}

function logFailure(slug: string, stage: string, error: unknown): void {
  log.warn({ event: 'oidc-failure', page: slug, stage, reason: reasonOf(error) }, `OpenID Connect sign-in to ${slug} failed at ${stage} (${reasonOf(error)})`);
}

function redirectUri(visit: Visit, slug: string): string {
  return `${siteOrigin(visit.context.url)}${visit.context.locals.sitePath}${PRIVATE_PREFIX}${slug}/oidc/callback`;
}

async function start(visit: Visit, slug: string): Promise<Answer> {
  const form = await readForm(visit.context.request);
  if (!postIsOurs(visit, form, `sign-in:${slug}`)) return failed(visit, 403);
  const gated: GatedPage | null = audienceBook()?.bySlug(slug) ?? null;
  const settings = gated?.access.oidc ?? null;
  // A page without OpenID Connect (or no page) answers as a provider that failed: the same page.
  if (!gated || !settings) return failed(visit, 502);
  let config: oidc.Configuration;
  try {
    config = await configuration(settings);
  } catch (error) {
    logFailure(slug, 'discovery', error);
    return failed(visit, 502);
  }
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const verifier = oidc.randomPKCECodeVerifier();
  const browser = randomToken();
  await visit.stores.audiences.startOidc(state, gated.page.id, browser, verifier, nonce);
  const target = oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri(visit, slug),
    scope: 'openid email',
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  });
  // A page that goes on to the provider, not a redirect: the sign-in form's Content-Security-Policy
  // (form-action 'self') would stop a form's redirect to another origin.
  const i18n = visit.context.locals.i18n;
  return { kind: 'answer', response: privatePage(visit, 200, { kind: 'message', title: i18n.t('private.signInTitle'), body: '', link: { href: target.href, text: i18n.t('private.oidcButton') } }, { 'set-cookie': browserCookie(visit, browser, 600) }, target.href) };
}

async function callback(visit: Visit, slug: string): Promise<Answer> {
  const url = visit.context.url;
  const state = url.searchParams.get('state') ?? '';
  const browser = readCookie(visit.context.request.headers.get('cookie') ?? undefined, browserCookieName(visit));
  const taken = state ? await visit.stores.audiences.takeOidc(state, browser) : null;
  const gated = taken ? (audienceBook()?.byId(taken.pageId) ?? null) : null;
  if (!taken || !gated || gated.page.slug !== slug || !gated.access.oidc) {
    logFailure(slug, 'state', new Error('an unknown, expired, replayed or foreign state'));
    return failed(visit, 400);
  }
  const settings = gated.access.oidc;
  let claims: Record<string, unknown>;
  try {
    const config = await configuration(settings);
    // The URL the provider sent the browser to, at the address it knows (behind the front, the site's own URL may differ).
    const current = new URL(`${redirectUri(visit, slug)}${url.search}`);
    const tokens = await oidc.authorizationCodeGrant(config, current, { pkceCodeVerifier: taken.codeVerifier, expectedState: state, expectedNonce: taken.nonce, idTokenExpected: true });
    claims = { ...(tokens.claims() ?? {}) };
    // Many providers keep the e-mail address (or the claim asked for) to the UserInfo endpoint.
    const wanted = settings.claim?.name ?? 'email';
    if (claims[wanted] === undefined && typeof claims.sub === 'string' && tokens.access_token) {
      claims = { ...(await oidc.fetchUserInfo(config, tokens.access_token, claims.sub)), ...claims };
    }
  } catch (error) {
    logFailure(slug, 'token', error);
    return failed(visit, 502);
  }
  const allowed = claimsAllowed(settings, claims);
  if (!allowed) {
    log.warn({ event: 'oidc-refused', page: slug }, `OpenID Connect sign-in to ${slug} refused: the account is not in the page's domains or lacks its claim`);
    return failed(visit, 403, true);
  }
  const setCookie = await admit(visit, gated, { via: 'oidc', subject: allowed.email, invitationId: null });
  const i18n = visit.context.locals.i18n;
  const home = `${visit.context.locals.sitePath}/${slug}/`;
  // A page, not a redirect: the session cookie is SameSite=Strict and this navigation came from the provider's site.
  return { kind: 'answer', response: privatePage(visit, 200, { kind: 'message', title: i18n.t('private.signedInTitle'), body: '', link: { href: home, text: i18n.t('private.openPage') } }, setCookie, home) };
}

export async function oidcRoute(visit: Visit, path: string): Promise<Answer | null> {
  const method = visit.context.request.method;
  let match: RegExpExecArray | null;
  if ((match = START.exec(path)) && method === 'POST') return start(visit, match[1]!);
  if ((match = CALLBACK.exec(path)) && method !== 'POST') return callback(visit, match[1]!);
  return null;
}
