/**
 * The subscription routes, below each public page's root (`/<slug>/…` on the main host, `/…` on
 * the page's custom domain):
 *   POST subscribe          the form: always "check your inbox" for a valid address
 *   GET  subscribe/confirm  a page with a button;  POST confirms (once, within 48 h)
 *   GET  subscribe/manage   unsubscribe or choose components;  POST does it, including the
 *                           RFC 8058 one-click `List-Unsubscribe=One-Click`
 * The front server routes these here before its method gate; this module never sees a request
 * it did not ask for, and never learns more than the form's fields and the client's address.
 * Answers speak the subscriber's language: the one kept with them when a link's token names
 * them, else the `locale` the form or link carries (if the page offers it), else the page's default.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { StatusPage } from '../contract/index.ts';
import { type Snapshot, joinPageMonitors, findPageByHost, findPageBySlug, type Locale, pageLanguage, type LanguageSettings, translator, localeBasePath, subscriptionText } from '../site/public.ts';
import { answerPage, ANSWER_HEADERS, type AnswerPage, type PageBody } from './answer-page.ts';
import { parseEmailAddress } from './email-address.ts';
import { readBodyUpTo } from './form-body.ts';
import { RateLimiter } from './rate-limit.ts';
import type { SubscriberStore } from './store.ts';
import { readManageToken, isTokenShaped } from './tokens.ts';
import { chooseLocale } from './subscriber-language.ts';
import type { EndpointSubscription } from './endpoint-deliveries.ts';
import { StoreUnavailableError } from '../store/errors.ts';

/** The largest form body read: an address, a few dozen component ids and a token. */
const MAX_BODY_BYTES = 16 * 1024;

export interface RouteDeps {
  store: SubscriberStore;
  /** The newest snapshot the site has, or null before its first load. */
  snapshot(): Snapshot | null;
  /** Queues the confirmation mail of a new or renewed request. */
  sendConfirmation(page: StatusPage, subscriberId: string, token: string, email: string, locale: Locale): void;
  /**
   * A webhook or chat subscription from the form (`webhook_url`): checked, stored and confirmed by
   * its first delivery, or refused with the reason (endpoint-deliveries.ts). Absent: e-mail only.
   */
  subscribeEndpoint?(page: StatusPage, input: { url: string | null; contactEmail: string | null; components: readonly string[]; locale: string | null }): Promise<EndpointSubscription>;
  /** Which languages each page offers (SITE_LOCALE, PAGE_LOCALES, SITE_LOCALES) and its zone. */
  languages: LanguageSettings;
  now?: () => number;
  /** Form posts per client address and window (default 10 per 10 minutes). */
  clientLimit?: { limit: number; windowMs: number };
  /** Pages with an audience (docs/private-pages.md): who may subscribe. Absent: their routes are a missing page's. */
  viewers?: ViewerGate;
}

/** The audiences' answers the routes of a non-public page need (private-subscribers.ts opens them). */
export interface ViewerGate {
  /** The viewer whose live session (the request's viewer cookie; `client`: the connection's address) holds a live grant to the page, or null. */
  viewerFor(pageId: string, cookie: string | undefined, client: string, now: number): Promise<string | null>;
  /** Whether a viewer's grant to the page is live. */
  granted(viewerId: string, pageId: string, now: number): Promise<boolean>;
}

interface Located {
  page: StatusPage;
  /** The page's root as this request reached it ('' on its custom domain). */
  basePath: string;
  action: 'subscribe' | 'confirm' | 'manage';
  query: URLSearchParams;
  /** A non-public page (by slug on the main host): open only to its audience, else a missing page. */
  gated: boolean;
}

function locate(snapshot: Snapshot, host: string | undefined, url: string): Located | null {
  const parsed = new URL(url, 'http://localhost');
  const segments = parsed.pathname.split('/').filter(Boolean);
  const at = segments.indexOf('subscribe');
  if (at < 0 || at > 1) return null;
  const action = (segments[at + 1] ?? 'subscribe') as Located['action'];
  const domainPage = findPageByHost(snapshot.pages, host);
  if (at === 0) return domainPage ? { page: domainPage, basePath: '', action, query: parsed.searchParams, gated: false } : null;
  // On a custom domain only that page exists (as resolve-page.ts decides for the pages).
  if (domainPage) return null;
  let slug: string;
  try {
    slug = decodeURIComponent(segments[0] ?? '');
  } catch {
    return null;
  }
  const page = findPageBySlug(snapshot.pages, slug);
  if (page) return { page, basePath: `/${encodeURIComponent(page.slug)}`, action, query: parsed.searchParams, gated: false };
  // A page with an audience lives on the main host only, by its slug (docs/private-pages.md).
  const hidden = snapshot.pages.find((candidate) => candidate.isPublic === false && candidate.slug === slug);
  return hidden ? { page: hidden, basePath: `/${encodeURIComponent(hidden.slug)}`, action, query: parsed.searchParams, gated: true } : null;
}

interface Form {
  fields: URLSearchParams;
  /** RFC 8058's one-click body, form-encoded or (as the RFC prefers) multipart/form-data. */
  oneClick: boolean;
}

const MULTIPART_ONE_CLICK = /name="?List-Unsubscribe"?\r?\n(?:[^\r\n]+\r?\n)*\r?\nOne-Click\r?\n/;

async function readForm(request: IncomingMessage): Promise<Form | null> {
  const type = request.headers['content-type'] ?? '';
  const encoded = /^application\/x-www-form-urlencoded\b/i.test(type);
  if (!encoded && !/^multipart\/form-data\b/i.test(type)) return null;
  const body = await readBodyUpTo(request, MAX_BODY_BYTES);
  if (!body) return null;
  const text = body.toString('utf8');
  if (!encoded) return { fields: new URLSearchParams(), oneClick: MULTIPART_ONE_CLICK.test(text) };
  const fields = new URLSearchParams(text);
  return { fields, oneClick: fields.get('List-Unsubscribe') === 'One-Click' };
}

/** The CLI (`porchlight subscribe`) asks for JSON; browsers get the HTML page. Same route, same checks. */
function wantsJson(request: IncomingMessage): boolean {
  return /\bapplication\/json\b/i.test(request.headers.accept ?? '');
}

/** A JSON answer: `body` may hold the signing secret, so it is only ever written here, never logged. */
function sendJson(response: ServerResponse, status: number, body: Record<string, unknown>): void {
  const bytes = Buffer.from(JSON.stringify(body));
  response.writeHead(status, { ...ANSWER_HEADERS, 'content-type': 'application/json; charset=utf-8', 'content-length': String(bytes.length) });
  response.end(bytes);
}

function send(request: IncomingMessage, response: ServerResponse, answer: AnswerPage, headers: Record<string, string> = {}): void {
  const body = Buffer.from(answer.html);
  response.writeHead(answer.status, { ...ANSWER_HEADERS, ...headers, 'content-length': String(body.length) });
  response.end(request.method === 'HEAD' ? undefined : body);
}

/** The page's components as a subscriber chooses them: its monitors, labelled as it shows them. */
function choicesOf(snapshot: Snapshot, page: StatusPage): { id: string; label: string }[] {
  return joinPageMonitors(page.monitors, snapshot.monitors, { underMaintenance: new Set() }).map((row) => ({ id: row.monitorId, label: row.label }));
}

export function createRoutes(deps: RouteDeps): (request: IncomingMessage, response: ServerResponse) => Promise<void> {
  const now = deps.now ?? Date.now;
  const clients = new RateLimiter(deps.clientLimit ?? { limit: 10, windowMs: 10 * 60_000 });
  // Token posts are cheap to check but are the way to guess: bounded per client too.
  const tokenClients = new RateLimiter({ limit: 60, windowMs: 10 * 60_000 });

  const siteI18n = translator(deps.languages.siteLocale, deps.languages.siteTimeZone);
  const message = (status: number, title: string, body: string) => answerPage(status, null, null, { kind: 'message', title, body }, siteI18n);
  const site = subscriptionText(siteI18n);

  /**
   * The store unreachable (PostgreSQL stopped, failing over): 503 with Retry-After and a page (or
   * JSON) saying that nothing was saved. Nothing was: each change is one transaction, rolled back
   * (or never begun) when the server went away, and no mail is queued before it commits.
   */
  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    try {
      await handleNow(request, response);
    } catch (error) {
      if (!(error instanceof StoreUnavailableError) || response.headersSent) throw error;
      request.resume();
      const retryAfter = { 'retry-after': String(error.retryAfterSeconds) };
      if (wantsJson(request)) {
        const bytes = Buffer.from(JSON.stringify({ ok: false, problem: 'unavailable', message: site.storeUnavailableBody }));
        response.writeHead(503, { ...ANSWER_HEADERS, ...retryAfter, 'content-type': 'application/json; charset=utf-8', 'content-length': String(bytes.length) });
        response.end(bytes);
        return;
      }
      send(request, response, message(503, site.unavailableTitle, site.storeUnavailableBody), retryAfter);
    }
  }

  async function handleNow(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const snapshot = deps.snapshot();
    const method = request.method ?? 'GET';
    const client = String(request.headers['x-porchlight-client'] ?? 'unknown');
    // No data loaded yet (just started): nothing can be checked against the pages; soon it can.
    if (!snapshot) return send(request, response, message(503, site.unavailableTitle, site.unavailableBody), { 'retry-after': '5' });
    const found = locate(snapshot, request.headers.host, request.url ?? '/');
    const missing = () => send(request, response, message(404, site.notFoundTitle, site.notFoundBody));
    if (!found) return missing();
    const { page, action } = found;
    /** Of a page with an audience: the viewer subscribing (a live session's live grant), or null. */
    let viewer: string | null = null;
    /**
     * Its audience only: a viewer by their session, or a link's token (query, or the form's field)
     * whose subscriber's grant is still live. Anyone else gets exactly a missing page's answer.
     */
    const admitted = async (formToken: string | null): Promise<boolean> => {
      if (!found.gated) return true;
      viewer = deps.viewers ? await deps.viewers.viewerFor(page.id, request.headers.cookie, client, now()) : null;
      return viewer !== null || admittedByToken(found, page, found.query.get('t') ?? formToken);
    };
    if (method !== 'POST' && !(await admitted(null))) return missing();
    const language = pageLanguage(deps.languages, page.slug);
    /** The answers in the first of `candidates` the page offers (see above), else its default language. */
    const speaking = (...candidates: (string | null | undefined)[]) => {
      const i18n = translator(chooseLocale(language, ...candidates), language.timeZone);
      const home = `${localeBasePath(found.basePath, language, i18n.locale)}/`;
      const reply = (status: number, body: PageBody) => send(request, response, answerPage(status, page, home, body, i18n));
      const say = (status: number, title: string, body: string) => reply(status, { kind: 'message', title, body });
      return { words: subscriptionText(i18n), locale: i18n.locale, reply, say };
    };
    const linked = found.query.get('locale');

    if (method !== 'POST') {
      const token = found.query.get('t');
      if (action === 'subscribe') {
        const { words, say } = speaking(linked);
        return say(200, words.formHeading, words.formIntro);
      }
      if (action === 'confirm') {
        const pending = isTokenShaped(token) ? await deps.store.confirmable(token, now()) : null;
        const { words, reply, say } = speaking(pending?.locale, linked);
        return pending && token ? reply(200, { kind: 'confirm', token }) : say(410, words.linkInvalidTitle, words.linkInvalidBody);
      }
      const subscriber = await manageable(token, page);
      const { words, reply, say } = speaking(subscriber?.locale, linked);
      if (!subscriber || !token) return say(410, words.linkInvalidTitle, words.linkInvalidBody);
      const chosen = new Set(subscriber.components);
      return reply(200, { kind: 'manage', token, choices: choicesOf(snapshot, page).map((choice) => ({ ...choice, checked: chosen.has(choice.id) })) });
    }

    // Read before the limit is checked, only to answer in the visitor's language (the body is bounded).
    const read = await readForm(request);
    if (!read) request.resume();
    const form = read?.fields ?? new URLSearchParams();
    if (!(await admitted(form.get('t')))) return missing();
    const posted = form.get('locale');
    const limiter = action === 'subscribe' ? clients : tokenClients;
    if (!limiter.allow(client, now())) {
      const { words, say } = speaking(posted, linked);
      if (wantsJson(request)) return sendJson(response, 429, { ok: false, problem: 'tooMany', message: words.tooManyBody });
      return say(429, words.tooManyTitle, words.tooManyBody);
    }

    if (action === 'subscribe' && found.gated && read && form.has('webhook_url')) {
      // A webhook or chat receiver is no member of the audience: its deliveries could go anywhere.
      const { words, say } = speaking(posted);
      if (wantsJson(request)) return sendJson(response, 400, { ok: false, problem: 'privateEmailOnly', message: words.privateEmailOnly });
      return say(400, words.webhookProblemTitle, words.privateEmailOnly);
    }

    if (action === 'subscribe' && read && form.has('webhook_url') && deps.subscribeEndpoint) {
      const { words, locale, say, reply } = speaking(posted);
      const json = wantsJson(request);
      const choices = choicesOf(snapshot, page);
      const known = new Set(choices.map((choice) => choice.id));
      let chosen = [...new Set(form.getAll('component'))].filter((id) => known.has(id));
      if (json) {
        // A script names components by id or by the name the page shows, and a typo is refused rather than dropped.
        const named = form.getAll('component').map((wanted) => choices.find((choice) => choice.id === wanted || choice.label.toLowerCase() === wanted.trim().toLowerCase()));
        const missing = form.getAll('component').filter((_, index) => !named[index]);
        if (missing.length > 0) return sendJson(response, 400, { ok: false, problem: 'unknownComponent', message: `no component ${missing.map((name) => `"${name}"`).join(', ')} on this page; it has: ${choices.map((choice) => choice.label).join(', ') || 'none'}` });
        chosen = [...new Set(named.flatMap((choice) => (choice ? [choice.id] : [])))];
      }
      const contactRaw = form.get('contact_email')?.trim() ?? '';
      const contact = contactRaw === '' ? null : parseEmailAddress(contactRaw);
      if (contactRaw !== '' && !contact) {
        if (json) return sendJson(response, 400, { ok: false, problem: 'invalidContact', message: words.invalidAddressBody });
        return say(400, words.invalidAddressTitle, words.invalidAddressBody);
      }
      const result = await deps.subscribeEndpoint(page, { url: form.get('webhook_url'), contactEmail: contact?.address ?? null, components: chosen.length === known.size ? [] : chosen, locale });
      if (json) {
        if (!result.ok) return sendJson(response, result.problem === 'exists' ? 409 : 400, { ok: false, problem: result.problem, message: words.webhookProblems[result.problem] });
        return sendJson(response, 200, { ok: true, id: result.id, channel: result.channel, page: page.slug, secret: result.secret });
      }
      if (!result.ok) return say(result.problem === 'exists' ? 409 : 400, words.webhookProblemTitle, words.webhookProblems[result.problem]);
      if (result.secret) return reply(200, { kind: 'secret', title: words.webhookSubscribedTitle, body: words.webhookSecretBody, secret: result.secret });
      return say(200, words.webhookSubscribedTitle, words.channelSubscribedBody);
    }

    if (action === 'subscribe') {
      const { words, locale, say } = speaking(posted);
      const email = read ? parseEmailAddress(form.get('email')) : null;
      if (!email) return say(400, words.invalidAddressTitle, words.invalidAddressBody);
      const known = new Set(choicesOf(snapshot, page).map((choice) => choice.id));
      const chosen = [...new Set(form.getAll('component'))].filter((id) => known.has(id));
      // The whole choice means "everything", including components added later.
      const components = chosen.length === known.size ? [] : chosen;
      // A page with an audience: subscribing takes a viewer's session (a confirm or manage link's token does not do).
      if (found.gated && viewer === null) return missing();
      const request_ = await deps.store.subscribe(page.id, email, components, now(), locale, viewer);
      if (request_) deps.sendConfirmation(page, request_.id, request_.token, email.address, locale);
      return say(200, words.checkInboxTitle, words.checkInboxBody);
    }

    const token = found.query.get('t') ?? form.get('t');
    if (action === 'confirm') {
      // Another page's link is not confirmed here (nor used up).
      const pending = isTokenShaped(token) ? await deps.store.confirmable(token, now()) : null;
      const { words, say } = speaking(pending?.locale, posted, linked);
      if (!read) return say(400, words.invalidAddressTitle, words.invalidAddressBody);
      const confirmed = pending && pending.pageId === page.id && token ? await deps.store.confirm(token, now()) : null;
      return confirmed ? say(200, words.confirmedTitle, words.confirmedBody) : say(410, words.linkInvalidTitle, words.linkInvalidBody);
    }
    const subscriber = await manageable(token, page);
    const { words, say } = speaking(subscriber?.locale, posted, linked);
    if (!read) return say(400, words.invalidAddressTitle, words.invalidAddressBody);
    if (!subscriber) return say(410, words.linkInvalidTitle, words.linkInvalidBody);
    if (read.oneClick || form.get('action') === 'unsubscribe') {
      await deps.store.remove(subscriber.id);
      return say(200, words.unsubscribedTitle, words.unsubscribedBody);
    }
    const known = new Set(choicesOf(snapshot, page).map((choice) => choice.id));
    const chosen = [...new Set(form.getAll('component'))].filter((id) => known.has(id));
    await deps.store.setComponents(subscriber.id, chosen.length === known.size ? [] : chosen);
    return say(200, words.savedTitle, words.savedBody);
  }

  /** A confirm or manage link of a page with an audience: its token names a subscriber of the page whose grant is live. */
  async function admittedByToken(found: Located, page: StatusPage, token: string | null): Promise<boolean> {
    if (!deps.viewers || found.action === 'subscribe') return false;
    const subscriber = found.action === 'confirm'
      ? (isTokenShaped(token) ? await deps.store.confirmable(token, now()) : null)
      : await manageable(token, page);
    if (!subscriber || subscriber.pageId !== page.id || subscriber.viewerId === null) return false;
    return deps.viewers.granted(subscriber.viewerId, page.id, now());
  }

  async function manageable(token: string | null, page: StatusPage) {
    const id = readManageToken(deps.store.secret(), token);
    const subscriber = id ? await deps.store.get(id) : null;
    return subscriber && subscriber.pageId === page.id && subscriber.state !== 'pending' ? subscriber : null;
  }

  return handle;
}
