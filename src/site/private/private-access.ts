/**
 * What a request the front's private relay handed over (docs/private-pages.md) gets: the private
 * routes under `/_porchlight/private/` (sign-in, invitations, feed addresses), or, for a gated
 * page's path, the page itself when the visitor is of its audience (a session granted it, or an
 * address in its ranges); else exactly what a stranger gets (the missing page's 404), or the
 * sign-in page at the address of a *sign-in shown* page.
 */
import type { APIContext } from 'astro';
import type { StatusPage } from '../../contract/index.ts';
import { addressMatcher } from '../../audiences/cidr.ts';
import { firstSegment, PRIVATE_FORM_TYPE, PRIVATE_PREFIX, viewerCookieName } from '../../audiences/gated-routes.ts';
import type { GrantSource } from '../../audiences/store.ts';
import { checkCsrfToken, checkRequestOrigin, csrfToken, CSRF_FIELD } from '../../auth/csrf.ts';
import { verifyPassword } from '../../auth/password.ts';
import { clearCookie, cookieMustBeSecure, isLoopbackAddress, readCookie, serializeCookie } from '../../auth/session-cookie.ts';
import { newId } from '../../store/ids.ts';
import { createLogger } from '../../logging/logger.ts';
import { randomToken } from '../../audiences/tokens.ts';
import { siteConfig } from '../running-config.ts';
import { splitLocalePath } from '../view/languages.ts';
import { PAGE_OUTPUTS } from '../view/page-outputs.ts';
import { audienceBook, VIEWER_SESSION_POLICY, type AudienceStores, type GatedPage } from './audience-book.ts';
import { privatePageHtml, SIGN_IN_STYLE_HASH, type PrivatePageBody } from './sign-in-page.ts';
import { oidcRoute } from './oidc-routes.ts';
import { signOutTokenIsRight, SIGN_OUT_PATH, viewerControls, type ViewerControls } from './viewer-controls.ts';

export type PrivateOutcome =
  /** Answered here (a private route's page or redirect). */
  | { kind: 'answer'; response: Response }
  /** The page, for its audience: render `path` (the request's own, or a feed's) as usual. */
  | { kind: 'view'; page: StatusPage; path: string; controls: ViewerControls | null }
  /** Nothing of the audiences: the usual answer, a stranger's. */
  | { kind: 'none' };

const NONE: PrivateOutcome = { kind: 'none' };
const FEED_OUTPUTS: ReadonlySet<string> = new Set([PAGE_OUTPUTS.atomFeed, PAGE_OUTPUTS.rssFeed, PAGE_OUTPUTS.maintenanceCalendar]);
const SLUG = '[a-z0-9]+(?:-[a-z0-9]+)*';
const SIGN_IN = new RegExp(`^${PRIVATE_PREFIX}(${SLUG})/sign-in$`);
const INVITE = /^\/_porchlight\/private\/invite\/([A-Za-z0-9_.-]{1,120})$/;
const FEEDS = new RegExp(`^${PRIVATE_PREFIX}(${SLUG})/feeds$`);
const FEED = /^\/_porchlight\/private\/feed\/([A-Za-z0-9_-]{43})\/([a-z.]+)$/;
const log = createLogger('audiences');

/** The headers every private answer carries: kept by no cache, indexed by no engine. */
export const PRIVATE_HEADERS = { 'cache-control': 'private, no-store', 'x-robots-tag': 'noindex' } as const;

/** The site's own origin as the visitor's browser names it, for the Origin check. */
export function siteOrigin(url: URL): string {
  return siteConfig().publicUrl ? new URL(siteConfig().publicUrl!).origin : url.origin;
}

interface Visit {
  context: APIContext;
  client: string;
  secure: boolean;
  stores: AudienceStores;
}

function cookieOptions(visit: Visit, name: 'porchlight-viewer' | 'porchlight-signin', maxAgeSeconds?: number) {
  return { name, secure: visit.secure, ...(maxAgeSeconds === undefined ? {} : { maxAgeSeconds }) };
}

export function privatePage(visit: Visit, status: number, body: PrivatePageBody, extra: Record<string, string> = {}, refresh: string | null = null): Response {
  visit.context.locals.cspStyles.push(SIGN_IN_STYLE_HASH);
  return new Response(privatePageHtml(body, visit.context.locals.i18n, refresh), { status, headers: { 'content-type': 'text/html; charset=utf-8', ...PRIVATE_HEADERS, ...extra } });
}

/** The visitor's sign-in form secret (a pre-session cookie), made when absent; with the Set-Cookie to send. */
function signInSecret(visit: Visit): { secret: string; setCookie: Record<string, string> } {
  const name = viewerCookieName(visit.secure).replace('viewer', 'signin');
  const known = readCookie(visit.context.request.headers.get('cookie') ?? undefined, name);
  if (known && /^[A-Za-z0-9_-]{43}$/.test(known)) return { secret: known, setCookie: {} };
  const secret = randomToken();
  return { secret, setCookie: { 'set-cookie': serializeCookie(cookieOptions(visit, 'porchlight-signin', 3600), secret) } };
}

export function signInPage(visit: Visit, slug: string, error: string | null, status = 200): Response {
  const { secret, setCookie } = signInSecret(visit);
  const base = `${visit.context.locals.sitePath}${PRIVATE_PREFIX}${slug}`;
  return privatePage(visit, status, { kind: 'sign-in', action: `${base}/sign-in`, oidcAction: `${base}/oidc`, csrf: csrfToken(secret, `sign-in:${slug}`), error }, setCookie);
}

/** A POST that another site or a forged form sent: refused before anything is read. */
export function postIsOurs(visit: Visit, form: URLSearchParams, purpose: string): boolean {
  const headers = Object.fromEntries(visit.context.request.headers);
  if (!checkRequestOrigin(headers, siteOrigin(visit.context.url)).ok) return false;
  const name = viewerCookieName(visit.secure).replace('viewer', 'signin');
  const secret = readCookie(visit.context.request.headers.get('cookie') ?? undefined, name);
  return checkCsrfToken(secret, form.get(CSRF_FIELD), purpose);
}

/** The viewer of this request's session, or null. */
export async function viewerOf(visit: Pick<Visit, 'context' | 'secure' | 'stores'>): Promise<string | null> {
  const token = readCookie(visit.context.request.headers.get('cookie') ?? undefined, viewerCookieName(visit.secure));
  const session = token ? await visit.stores.sessions.lookup(token, Date.now()) : null;
  return session && session.subject.kind === 'viewer' ? session.subject.id : null;
}

/**
 * Lets this visitor read `gated`: their live session gains the page, or a new session starts.
 * Resolves to the Set-Cookie to send (none when the session was already there).
 */
export async function admit(visit: Pick<Visit, 'context' | 'secure' | 'stores'>, gated: GatedPage, source: GrantSource): Promise<Record<string, string>> {
  const now = Date.now();
  let viewer = await viewerOf(visit);
  let setCookie: Record<string, string> = {};
  if (viewer === null) {
    viewer = newId('vwr');
    const { token } = await visit.stores.sessions.create({ kind: 'viewer', id: viewer }, now);
    setCookie = { 'set-cookie': serializeCookie({ name: 'porchlight-viewer', secure: visit.secure, maxAgeSeconds: VIEWER_SESSION_POLICY.absoluteMs / 1000 }, token) };
  }
  await visit.stores.audiences.grant(viewer, gated.page.id, source, now);
  log.info({ event: 'viewer-admitted', page: gated.page.slug, via: source.via }, `a viewer was let in to ${gated.page.slug} (${source.via})`);
  return setCookie;
}

function pageHome(visit: Pick<Visit, 'context'>, slug: string): string {
  return `${visit.context.locals.sitePath}/${slug}/`;
}

/** The viewer's links on the page (their feed addresses, sign-out when they have a session). */
async function controlsFor(visit: Visit, gated: GatedPage): Promise<ViewerControls> {
  const token = readCookie(visit.context.request.headers.get('cookie') ?? undefined, viewerCookieName(visit.secure));
  const viewer = token ? await viewerOf(visit) : null;
  const granted = viewer !== null && (await visit.stores.audiences.grantOf(viewer, gated.page.id, Date.now())) !== null;
  return viewerControls({ sitePath: visit.context.locals.sitePath, slug: gated.page.slug, sessionToken: viewer !== null ? token : null, granted, subscriptions: siteConfig().subscriptions });
}

/** Whether this visitor may read the gated page now: a session granted it, or an address in its ranges. */
async function mayRead(visit: Visit, gated: GatedPage): Promise<GrantSource | 'address' | null> {
  if (gated.access.cidrs.length > 0 && addressMatcher(gated.access.cidrs)(visit.client)) return 'address';
  const viewer = await viewerOf(visit);
  return viewer === null ? null : visit.stores.audiences.grantOf(viewer, gated.page.id, Date.now());
}

async function signInPost(visit: Visit, slug: string): Promise<Response> {
  const form = await readForm(visit.context.request);
  const i18n = visit.context.locals.i18n;
  if (!postIsOurs(visit, form, `sign-in:${slug}`)) return signInPage(visit, slug, i18n.t('private.formExpired'), 403);
  const account = `page:${slug}`;
  const now = Date.now();
  const verdict = await visit.stores.throttle.check(account, visit.client, now);
  if (!verdict.allowed) {
    const seconds = verdict.retryAfterSeconds;
    return withHeaders(signInPage(visit, slug, i18n.t('private.tooManyAttempts', { seconds }), 429), { 'retry-after': String(seconds) });
  }
  const gated = audienceBook()?.bySlug(slug) ?? null;
  const given = form.get('passphrase');
  // An unknown page, or one without a passphrase, costs the same hash and gives the same answer.
  const right = await verifyPassword(typeof given === 'string' ? given : '', gated?.access.passphraseHash ?? null);
  if (!right || gated === null) {
    await visit.stores.throttle.recordFailure(account, visit.client, now);
    return signInPage(visit, slug, i18n.t('private.wrongPassphrase'), 401);
  }
  await visit.stores.throttle.recordSuccess(account, visit.client);
  const setCookie = await admit(visit, gated, { via: 'passphrase', subject: 'passphrase', invitationId: null });
  return new Response(null, { status: 303, headers: { location: pageHome(visit, slug), ...PRIVATE_HEADERS, ...setCookie } });
}

/** A private form's fields: only the relay's form type (see PRIVATE_FORM_TYPE), bounded by the relay. */
export async function readForm(request: Request): Promise<URLSearchParams> {
  if (request.headers.get('content-type') !== PRIVATE_FORM_TYPE) return new URLSearchParams();
  return new URLSearchParams(await request.text().catch(() => ''));
}

function withHeaders(response: Response, headers: Record<string, string>): Response {
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}

async function invitation(visit: Visit, token: string): Promise<Response> {
  const i18n = visit.context.locals.i18n;
  const opened = await visit.stores.audiences.openInvitation(token);
  const book = audienceBook();
  let gated = opened ? (book?.byId(opened.pageId) ?? null) : null;
  // A valid invitation to a page whose audience was set a moment ago: read the audiences now
  // rather than refuse it until the next tick.
  if (opened && !gated && book) {
    await book.reload().catch(() => undefined);
    gated = book.byId(opened.pageId);
  }
  if (!opened || !gated) return privatePage(visit, 403, { kind: 'message', title: i18n.t('private.invitationInvalidTitle'), body: i18n.t('private.invitationInvalidBody'), link: null });
  const setCookie = await admit(visit, gated, { via: 'invitation', subject: opened.label, invitationId: opened.id });
  // A page, not a redirect: the session cookie is SameSite=Strict, and a redirect that a mail's
  // link (another site) started would not carry it; this page's own link and refresh do.
  const home = pageHome(visit, gated.page.slug);
  return privatePage(visit, 200, { kind: 'message', title: i18n.t('private.signedInTitle'), body: '', link: { href: home, text: i18n.t('private.openPage') } }, setCookie, home);
}

async function feeds(visit: Visit, slug: string): Promise<Response | null> {
  const gated = audienceBook()?.bySlug(slug) ?? null;
  const viewer = gated ? await viewerOf(visit) : null;
  const grant = viewer && gated ? await visit.stores.audiences.grantOf(viewer, gated.page.id, Date.now()) : null;
  if (!gated || !grant) return null;
  const { secret, setCookie } = signInSecret(visit);
  const purpose = `feeds:${slug}`;
  const action = `${visit.context.locals.sitePath}${PRIVATE_PREFIX}${slug}/feeds`;
  if (visit.context.request.method !== 'POST') return privatePage(visit, 200, { kind: 'feeds', action, csrf: csrfToken(secret, purpose), addresses: [] }, setCookie);
  const form = await readForm(visit.context.request);
  if (!postIsOurs(visit, form, purpose)) return privatePage(visit, 403, { kind: 'message', title: visit.context.locals.i18n.t('private.feedsTitle'), body: visit.context.locals.i18n.t('private.formExpired'), link: null });
  const token = await visit.stores.audiences.newFeedToken(gated.page.id, grant, Date.now(), viewer);
  const origin = siteOrigin(visit.context.url);
  const at = (output: string) => `${origin}${visit.context.locals.sitePath}${PRIVATE_PREFIX}feed/${token}/${output}`;
  const i18n = visit.context.locals.i18n;
  return privatePage(visit, 200, {
    kind: 'feeds',
    action,
    csrf: '',
    addresses: [
      { label: i18n.t('integrate.atom'), url: at(PAGE_OUTPUTS.atomFeed) },
      { label: i18n.t('integrate.rss'), url: at(PAGE_OUTPUTS.rssFeed) },
      { label: i18n.t('integrate.calendar'), url: at(PAGE_OUTPUTS.maintenanceCalendar) },
    ],
  });
}

/** The path of a page's HTML home (`/<slug>`, `/<slug>/`, `/<slug>/<language>/`): where *sign-in shown* offers sign-in. */
function isPageHome(path: string, slug: string): boolean {
  if (path === `/${slug}` || path === `/${slug}/`) return true;
  const rest = path.startsWith(`/${slug}/`) ? path.slice(slug.length + 2) : null;
  const split = rest === null ? null : splitLocalePath(rest);
  return split !== null && split.rest === '';
}

export async function privateOutcome(context: APIContext, client: string): Promise<PrivateOutcome> {
  const book = audienceBook();
  const stores = book ? await book.stores() : null;
  if (!book || !stores) return NONE;
  const secure = cookieMustBeSecure({ https: (siteConfig().publicUrl ?? '').startsWith('https:'), loopback: isLoopbackAddress(client) });
  const visit: Visit = { context, client, secure, stores };
  const path = context.url.pathname;
  const method = context.request.method;
  if (path.startsWith(PRIVATE_PREFIX)) {
    let match: RegExpExecArray | null;
    if ((match = SIGN_IN.exec(path))) return { kind: 'answer', response: method === 'POST' ? await signInPost(visit, match[1]!) : signInPage(visit, match[1]!, null) };
    if ((match = INVITE.exec(path)) && method !== 'POST') return { kind: 'answer', response: await invitation(visit, match[1]!) };
    if ((match = FEEDS.exec(path))) {
      const response = await feeds(visit, match[1]!);
      return response ? { kind: 'answer', response } : NONE;
    }
    if ((match = FEED.exec(path)) && method !== 'POST' && FEED_OUTPUTS.has(match[2]!)) {
      const pageId = await stores.audiences.feedTokenPage(match[1]!);
      const gated = pageId ? book.byId(pageId) : null;
      return gated ? { kind: 'view', page: gated.page, path: `/${gated.page.slug}/${match[2]}`, controls: null } : NONE;
    }
    // Sign-out from another site is refused too: the browser's Origin and Sec-Fetch-Site, and the
    // form's token made from this session's cookie (viewer-controls.ts).
    if (path === SIGN_OUT_PATH && method === 'POST' && checkRequestOrigin(Object.fromEntries(context.request.headers), siteOrigin(context.url)).ok) {
      const token = readCookie(context.request.headers.get('cookie') ?? undefined, viewerCookieName(secure));
      const form = await readForm(context.request);
      if (!signOutTokenIsRight(token, form.get(CSRF_FIELD))) {
        const i18n = context.locals.i18n;
        return { kind: 'answer', response: privatePage(visit, 403, { kind: 'message', title: i18n.t('private.signOutButton'), body: i18n.t('private.formExpired'), link: null }) };
      }
      if (token) await stores.sessions.revoke(token, Date.now());
      return { kind: 'answer', response: new Response(null, { status: 303, headers: { location: `${context.locals.sitePath}/`, ...PRIVATE_HEADERS, 'set-cookie': clearCookie({ name: 'porchlight-viewer', secure }) } }) };
    }
    const oidc = await oidcRoute(visit, path);
    return oidc ?? NONE;
  }
  const gated = book.bySlug(firstSegment(path));
  if (!gated || method === 'POST') return NONE;
  if (await mayRead(visit, gated)) return { kind: 'view', page: gated.page, path, controls: await controlsFor(visit, gated) };
  if (gated.access.mode === 'sign-in-shown' && isPageHome(path, gated.page.slug)) return { kind: 'answer', response: signInPage(visit, gated.page.slug, null) };
  return NONE;
}

export type { Visit };
