/**
 * The console's routes under /_porchlight/console/, answered by the front before its gate and its
 * cache (never stored, never rendered by the site, never exported). Every answer is `no-store`,
 * isolated as `private`, framed by nobody (but the theming screen's preview, by the console
 * itself) and allowed no script (but the passkey forms' one file, passkey-script.ts, on their two
 * pages). The API key stays here: the
 * browser talks only to these routes, which call the API through the typed client.
 *
 * Each request: the gate (host, transport) → the session (cookie) → on POST the browser's origin
 * headers and the form's CSRF token → the role → the action, recorded in the audit trail → a
 * redirect (POST, redirect, GET: every form works without JavaScript).
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, type ApiClient, type Incident, type MaintenanceWindow, type Monitor } from '../api/index.ts';
import { INCIDENT_SEVERITIES, INCIDENT_STATUSES } from '../contract/index.ts';
import { checkCsrfToken, checkRequestOrigin, csrfToken, CSRF_FIELD } from '../auth/csrf.ts';
import { hashPassword, passwordProblem, verifyPassword, type ScryptCost } from '../auth/password.ts';
import { clearCookie, cookieName, readCookie, serializeCookie } from '../auth/session-cookie.ts';
import type { SessionStore } from '../auth/session-store.ts';
import type { SignInThrottle } from '../auth/throttle.ts';
import { fillTemplate, listTemplates, readTemplate, templatePlaceholders } from '../cli/templates.ts';
import { readBodyUpTo } from '../subscribers/form-body.ts';
import { parseEmailAddress } from '../subscribers/email-address.ts';
import { isolationHeaders } from '../site/security/isolation.ts';
import type { Locale } from '../site/i18n/locales.ts';
import { translator, type Translator } from '../site/i18n/translator.ts';
import { consoleGate, type GateSettings } from './gate.ts';
import type { ClientAddressOf } from '../audiences/client-address.ts';
import { negotiateLocale } from './language.ts';
import { CONSOLE_PATH, consoleHref, isConsoleTarget } from './paths.ts';
import { isRole, may, OPERATOR_SUBJECT, type Permission } from './roles.ts';
import { OperatorExistsError, type ConsoleStore, type Operator } from './store.ts';
import { CONSOLE_CSS_HASH } from './style.ts';
import * as views from './views.ts';
import { createThemingScreen, type ThemingAnswer } from './theming-screen.ts';
import { html, type Html } from './html.ts';
import { outgoingPreview, type OutgoingDraft } from './outgoing-preview.ts';
import { outgoingBox } from './outgoing-view.ts';
import { monitorsScreen } from './monitors-screen.ts';
import { operatorAuditValue, operatorRowActions, requestedChange } from './operators-screen.ts';
import { pagesScreen } from './pages-screen.ts';
import { isPageAccessAction, pageAccessScreen } from './page-access-screen.ts';
import type { AudienceStore } from '../audiences/store.ts';
import type { ScreenAnswer, ScreenTools } from './screen.ts';
import { subscribersScreen } from './subscribers-screen.ts';
import { createPasskeyRoutes, isPasskeySignInPath, isPasskeysPath, type PasskeyAnswer } from './passkey-routes.ts';
import { PASSKEY_SCRIPT, PASSKEY_SCRIPT_PATH, passkeyPagePolicy } from './passkey-script.ts';
import { signInPasskeyPart } from './passkeys-view.ts';
import type { SubscriberStore } from '../subscribers/store.ts';

const MAX_BODY_BYTES = 64 * 1024;
/** The theming form alone carries up to 50 KB of CSS and 2 × 10 KB of HTML, percent-encoded. */
const THEMING_BODY_BYTES = 256 * 1024;
/** Over HTTPS `__Host-pl-console` (Path=/, as the prefix demands); on loopback HTTP Path is the console's. */
const SESSION_COOKIE = 'pl-console';
/** The sign-in and set-up forms' CSRF secret, before there is a session. */
const PRE_COOKIE = 'pl-console-pre';

export interface ConsoleOptions extends GateSettings {
  store: ConsoleStore;
  sessions: SessionStore;
  throttle: SignInThrottle;
  client: ApiClient;
  siteLocale: Locale;
  siteTimeZone: string;
  templatesDir: string;
  now?: () => number;
  log?: (line: string) => void;
  passwordCost?: ScryptCost;
  /** The client's address (TRUSTED_PROXIES' X-Forwarded-For, else the connection's), for the gate's loopback rule and the sign-in throttle. */
  clientAddress?: ClientAddressOf;
  /** The site thread's internal origin, which renders the theming screen's previews (src/site/preview/). */
  previewOrigin?: string | null;
  /** The subscribers' store on this thread (as the CLI opens it), or null when there is none. */
  subscribers?: () => Promise<SubscriberStore | null>;
  /** The audiences store (who may read a non-public page), opened on first use; null when it cannot be. */
  audiences?: () => Promise<AudienceStore | null>;
}

export interface ConsoleHandler {
  matches(url: string): boolean;
  handle(request: IncomingMessage, response: ServerResponse): Promise<void>;
}

const SECURITY_HEADERS = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  // Not no-referrer: with it Chromium sends `Origin: null` on the console's own form posts.
  'referrer-policy': 'same-origin',
  'x-frame-options': 'DENY',
  'x-robots-tag': 'noindex, nofollow',
  'content-security-policy': `default-src 'none'; style-src '${CONSOLE_CSS_HASH}'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
  ...isolationHeaders('private'),
};

class Answer {
  status: number;
  body: string;
  location: string | null;
  cookies: string[] = [];
  retryAfter: number | null = null;
  /** Over the security headers (the theming screen's frame and its document). */
  headers: Record<string, string> = {};
  /** A CSV download of this name instead of a page. */
  download: string | null = null;
  constructor(status: number, body: string, location: string | null = null) {
    this.status = status;
    this.body = body;
    this.location = location;
  }
}

interface Request {
  method: 'GET' | 'POST';
  path: string;
  query: URLSearchParams;
  form: URLSearchParams;
  i18n: Translator;
  origin: string;
  secure: boolean;
  address: string;
}

interface Signed {
  operator: Operator;
  token: string;
  csrf: string;
}

/** 'YYYY-MM-DDTHH:MM' (a datetime-local field, read as UTC) to ISO, or null. */
export function fromLocalField(value: string | null): string | null {
  if (!value || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(value)) return null;
  const ms = Date.parse(`${value}:00.000Z`);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}

export function toLocalField(iso: string): string {
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? '' : new Date(ms).toISOString().slice(0, 16);
}

const oneLine = (error: unknown) => (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';

export function createConsole(options: ConsoleOptions): ConsoleHandler {
  const now = options.now ?? Date.now;
  const log = options.log ?? ((line: string) => console.error(line));
  const { store, sessions, throttle, client } = options;
  const pageI18n = translator(options.siteLocale, options.siteTimeZone);

  const redirect = (path: string) => new Answer(303, '', `${CONSOLE_PATH}${path}`);

  function send(response: ServerResponse, answer: Answer, head: boolean): void {
    const body = Buffer.from(answer.body);
    response.writeHead(answer.status, {
      ...SECURITY_HEADERS,
      'content-type': answer.download ? 'text/csv; charset=utf-8' : 'text/html; charset=utf-8',
      ...answer.headers,
      ...(answer.download ? { 'content-disposition': `attachment; filename="${answer.download.replace(/[^A-Za-z0-9._-]/g, '_')}"` } : {}),
      'content-length': String(body.length),
      ...(answer.location ? { location: answer.location } : {}),
      ...(answer.retryAfter !== null ? { 'retry-after': String(answer.retryAfter) } : {}),
      ...(answer.cookies.length ? { 'set-cookie': answer.cookies } : {}),
    });
    response.end(head ? undefined : body);
  }

  async function readForm(request: IncomingMessage, limit: number): Promise<URLSearchParams | null> {
    if (!/^application\/x-www-form-urlencoded\b/i.test(request.headers['content-type'] ?? '')) {
      request.resume();
      return null;
    }
    const body = await readBodyUpTo(request, limit);
    return body ? new URLSearchParams(body.toString('utf8')) : null;
  }

  async function signedIn(request: IncomingMessage, secure: boolean): Promise<Signed | null> {
    const token = readCookie(request.headers.cookie, cookieName({ name: SESSION_COOKIE, secure }));
    const session = token ? await sessions.lookup(token, now()) : null;
    if (!token || !session || session.subject.kind !== OPERATOR_SUBJECT) return null;
    const operator = await store.operator(session.subject.id);
    return operator ? { operator, token, csrf: csrfToken(token) } : null;
  }

  /** The sign-in and set-up forms' secret: the pre-session cookie, set when missing. */
  function preSession(request: IncomingMessage, req: Request, answerCookies: string[]): string {
    const existing = readCookie(request.headers.cookie, cookieName({ name: PRE_COOKIE, secure: req.secure }));
    if (existing && /^[A-Za-z0-9_-]{43}$/.test(existing)) return existing;
    const made = randomBytes(32).toString('base64url');
    answerCookies.push(serializeCookie({ name: PRE_COOKIE, secure: req.secure, maxAgeSeconds: 3600, path: CONSOLE_PATH }, made));
    return made;
  }

  const ctxOf = (req: Request, signed: Signed | null, csrf?: string): views.ViewContext => ({ i18n: req.i18n, operator: signed?.operator ?? null, csrf: csrf ?? signed?.csrf ?? '' });
  const message = (req: Request, signed: Signed | null, status: number, title: string, text: string) => new Answer(status, views.messageView(ctxOf(req, signed), title, text));
  const forbidden = (req: Request, signed: Signed | null) => message(req, signed, 403, req.i18n.t('console.forbidden'), req.i18n.t('console.forbidden'));
  const notFound = (req: Request, signed: Signed | null) => message(req, signed, 404, req.i18n.t('console.notFound'), req.i18n.t('console.notFound'));
  const operatorActor = (operator: Operator) => `operator:${operator.id} ${operator.email}`;
  const actor = (signed: Signed) => operatorActor(signed.operator);
  const auditBy = (operator: Operator, action: string, target: string, before: unknown, after: unknown) => store.record({ actor: operatorActor(operator), action, target, before, after }, now());
  const audit = (signed: Signed, action: string, target: string, before: unknown, after: unknown) => auditBy(signed.operator, action, target, before, after);

  async function signIn(request: IncomingMessage, req: Request): Promise<Answer> {
    const cookies: string[] = [];
    const pre = preSession(request, req, cookies);
    const ctx = ctxOf(req, null, csrfToken(pre, 'pre'));
    const withCookies = (answer: Answer) => {
      answer.cookies.push(...cookies);
      return withPasskeyScript(req, answer);
    };
    if (req.method === 'GET') return withCookies(new Answer(200, views.signInView(ctx, '', null, passkeyPart(ctx))));
    const email = (req.form.get('email') ?? '').trim().slice(0, 320);
    const password = req.form.get('password') ?? '';
    const verdict = await throttle.check(email, req.address, now());
    if (!verdict.allowed) {
      const seconds = verdict.retryAfterSeconds;
      const answer = withCookies(new Answer(429, views.signInView(ctx, email, req.i18n.t('console.slowDown', { seconds }), passkeyPart(ctx))));
      answer.retryAfter = seconds;
      return answer;
    }
    const found = email ? await store.credentials(email) : null;
    const ok = await verifyPassword(password, found?.passwordHash ?? null, options.passwordCost);
    if (!ok || !found) {
      await throttle.recordFailure(email, req.address, now());
      return withCookies(new Answer(401, views.signInView(ctx, email, req.i18n.t('console.signInFailed'), passkeyPart(ctx))));
    }
    await throttle.recordSuccess(email, req.address);
    return startSession(req, found.operator, redirect(''));
  }

  const passkeys = createPasskeyRoutes({ store, throttle, publicUrl: options.publicUrl, now, audit: auditBy });
  const passkeyPart = (ctx: views.ViewContext) => (passkeys.offered ? signInPasskeyPart(ctx) : '');
  /** A page with a passkey form may load the console's script (by its address) and fetch its options. */
  function withPasskeyScript(req: Request, answer: Answer): Answer {
    if (passkeys.offered && answer.status !== 303) answer.headers['content-security-policy'] = passkeyPagePolicy(SECURITY_HEADERS['content-security-policy'], req.origin, consoleHref(PASSKEY_SCRIPT_PATH));
    return answer;
  }

  /** A passkey route's answer as the console's (a page with the script's policy, JSON, a redirect, a session). */
  async function fromPasskeys(req: Request, answer: PasskeyAnswer, signed: Signed | null): Promise<Answer> {
    if (answer.kind === 'redirect') return redirect(answer.path);
    if (answer.kind === 'not-found') return notFound(req, signed);
    if (answer.kind === 'signed-in') return startSession(req, answer.operator, redirect(''));
    if (answer.kind === 'json') {
      const made = new Answer(200, answer.body);
      made.headers['content-type'] = 'application/json; charset=utf-8';
      return made;
    }
    const made = withPasskeyScript(req, new Answer(answer.status, answer.body));
    made.retryAfter = answer.retryAfter ?? null;
    return made;
  }

  /** The passkey sign-in routes: the pre-session's token (checked in handle) binds the challenge. */
  function passkeySignIn(request: IncomingMessage, req: Request): Promise<PasskeyAnswer> {
    // A POST here carries the pre-session cookie (handle checked its token); a GET is only redirected.
    const ctx = ctxOf(req, null, csrfToken(preSession(request, req, []), 'pre'));
    const problem = (text: 'failed' | { slowDown: number }) => views.signInView(ctx, '', text === 'failed' ? req.i18n.t('console.passkeys.signInFailed') : req.i18n.t('console.slowDown', { seconds: text.slowDown }), passkeyPart(ctx));
    return passkeys.signIn({ method: req.method, path: req.path, form: req.form, csrf: ctx.csrf, address: req.address, problem });
  }

  async function startSession(req: Request, operator: Operator, answer: Answer): Promise<Answer> {
    const { token, session } = await sessions.create({ kind: OPERATOR_SUBJECT, id: operator.id }, now());
    answer.cookies.push(serializeCookie({ name: SESSION_COOKIE, secure: req.secure, maxAgeSeconds: (session.absoluteExpiresAt - session.createdAt) / 1000, path: CONSOLE_PATH }, token));
    answer.cookies.push(clearCookie({ name: PRE_COOKIE, secure: req.secure, path: CONSOLE_PATH }));
    return answer;
  }

  async function setup(request: IncomingMessage, req: Request): Promise<Answer> {
    const cookies: string[] = [];
    const pre = preSession(request, req, cookies);
    const ctx = ctxOf(req, null, csrfToken(pre, 'pre'));
    const token = (req.method === 'GET' ? req.query.get('t') : req.form.get('t')) ?? '';
    const operator = /^[A-Za-z0-9_-]{43}$/.test(token) ? await store.setupOperator(token, now()) : null;
    const answer = (a: Answer) => {
      a.cookies.push(...cookies);
      return a;
    };
    if (!operator) return answer(new Answer(410, views.messageView(ctx, req.i18n.t('console.setupHeading'), req.i18n.t('console.setupInvalid'))));
    if (req.method === 'GET') return answer(new Answer(200, views.setupView(ctx, token, operator.email, null)));
    const password = req.form.get('password') ?? '';
    if (passwordProblem(password)) return answer(new Answer(400, views.setupView(ctx, token, operator.email, req.i18n.t('console.setupLength'))));
    const done = await store.completeSetup(token, await hashPassword(password, options.passwordCost), now());
    if (!done) return answer(new Answer(410, views.messageView(ctx, req.i18n.t('console.setupHeading'), req.i18n.t('console.setupInvalid'))));
    // A new password ends every other session of the operator.
    await sessions.revokeAll({ kind: OPERATOR_SUBJECT, id: done.id }, now());
    await store.record({ actor: `operator:${done.id} ${done.email}`, action: 'operator.set-password', target: done.id, before: null, after: null }, now());
    return startSession(req, done, redirect(''));
  }

  const monitors = (): Promise<Monitor[]> => Array.fromAsync(client.monitors.listAll());

  /** The mail and the link card the draft will make (outgoing-preview.ts), from the API's data as it is now. */
  async function outgoing(req: Request, draft: OutgoingDraft, existing: Incident | null, monitorList: readonly Monitor[]): Promise<Html> {
    const [organization, pages] = await Promise.all([client.organization.get(), Array.fromAsync(client.statusPages.listAll())]);
    const links = options.publicUrl ? { origin: options.publicUrl.origin, configured: true } : { origin: req.origin, configured: false };
    return outgoingBox(req.i18n, outgoingPreview({ organization, pages, monitors: monitorList, draft, existing, links, i18n: pageI18n, now: new Date(now()) }));
  }

  async function incidentForm(req: Request, signed: Signed, draftIn: views.IncidentDraft | null, preview: boolean, problem: string | null, status: number): Promise<Answer> {
    const templates = await listTemplates(options.templatesDir);
    const monitorList = await monitors();
    let draft = draftIn;
    let placeholders: string[] = [];
    const templateName = draft?.template ?? req.query.get('template');
    if (templateName) {
      try {
        const template = await readTemplate(options.templatesDir, templateName);
        placeholders = templatePlaceholders(template);
        draft ??= {
          template: templateName,
          title: template.title ?? '',
          severity: template.severity ?? 'minor',
          status: template.status ?? 'investigating',
          message: template.message ?? '',
          monitorIds: monitorList.filter((monitor) => template.monitors.some((name) => name === monitor.id || name.toLowerCase() === monitor.name.toLowerCase())).map((monitor) => monitor.id),
          vars: new Map(),
        };
      } catch (error) {
        problem ??= oneLine(error);
      }
    }
    draft ??= { template: null, title: '', severity: 'minor', status: 'investigating', message: '', monitorIds: [], vars: new Map() };
    const filled = preview ? filledDraft(draft) : null;
    const box = filled ? html`${views.previewBox(ctxOf(req, signed), pageI18n, filled, monitorList.filter((m) => draft.monitorIds.includes(m.id)).map((m) => m.name))}${await outgoing(req, filled, null, monitorList)}` : null;
    return new Answer(status, views.incidentFormView(ctxOf(req, signed), templates, draft, placeholders, monitorList, box, problem));
  }

  /** A template's placeholders filled from the form (the CLI's filling, one source). */
  function filledDraft(draft: views.IncidentDraft): views.IncidentDraft {
    if (!draft.template) return draft;
    const filled = fillTemplate({ title: draft.title, severity: draft.severity, status: draft.status, message: draft.message, monitors: [] }, draft.vars, draft.template);
    return { ...draft, title: filled.title ?? '', severity: filled.severity ?? '', status: filled.status ?? '', message: filled.message ?? '' };
  }

  function draftFromForm(form: URLSearchParams): views.IncidentDraft {
    const vars = new Map<string, string>();
    for (const [key, value] of form) if (key.startsWith('var_') && /^var_[A-Za-z_][A-Za-z0-9_-]*$/.test(key)) vars.set(key.slice(4), value);
    const template = form.get('template');
    return {
      template: template && /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/.test(template) ? template : null,
      title: form.get('title') ?? '',
      severity: form.get('severity') ?? '',
      status: form.get('status') ?? 'investigating',
      message: form.get('message') ?? '',
      monitorIds: [...new Set(form.getAll('monitor'))],
      vars,
    };
  }

  async function openIncident(req: Request, signed: Signed): Promise<Answer> {
    const draft = draftFromForm(req.form);
    let filled: views.IncidentDraft;
    try {
      filled = filledDraft(draft);
    } catch (error) {
      return incidentForm(req, signed, draft, false, req.i18n.t('console.problem', { reason: oneLine(error) }), 400);
    }
    const severity = INCIDENT_SEVERITIES.find((s) => s === filled.severity);
    const status = INCIDENT_STATUSES.find((s) => s === filled.status && s !== 'resolved');
    if (!severity || !status || !filled.title.trim() || !filled.message.trim()) return incidentForm(req, signed, draft, false, req.i18n.t('console.missingFields'), 400);
    if (req.form.get('intent') !== 'publish') return incidentForm(req, signed, draft, true, null, 200);
    try {
      const incident = await client.incidents.create({ title: filled.title.trim(), severity, status, message: filled.message, monitorIds: [...filled.monitorIds] });
      await audit(signed, 'incident.open', incident.id, null, summary(incident));
      return redirect(`incidents/${encodeURIComponent(incident.id)}`);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      return incidentForm(req, signed, draft, false, req.i18n.t('console.problem', { reason: oneLine(error) }), 400);
    }
  }

  const summary = (incident: Incident) => ({ title: incident.title, status: incident.status, severity: incident.severity, monitors: incident.monitors.map(({ monitor }) => monitor.id), lastUpdate: [...incident.updates].sort((a, b) => b.createdAt.localeCompare(a.createdAt))[0]?.message ?? null });

  async function incidentPage(req: Request, signed: Signed, id: string): Promise<Answer> {
    let incident: Incident;
    try {
      incident = await client.incidents.get(id);
    } catch (error) {
      if (error instanceof ApiError) return notFound(req, signed);
      throw error;
    }
    const ctx = ctxOf(req, signed);
    if (req.method === 'GET') return new Answer(200, views.incidentView(ctx, incident, { status: incident.status, message: '' }, null, null));
    if (!may(signed.operator.role, 'incidents')) return forbidden(req, signed);
    const status = INCIDENT_STATUSES.find((s) => s === req.form.get('status'));
    const text = req.form.get('message') ?? '';
    const draft = { status: status ?? incident.status, message: text };
    if (!status || !text.trim()) return new Answer(400, views.incidentView(ctx, incident, draft, null, req.i18n.t('console.missingFields')));
    if (req.form.get('intent') !== 'publish') {
      const next = { title: incident.title, severity: incident.severity, status, message: text };
      const box = html`${views.previewBox(ctx, pageI18n, next, incident.monitors.map(({ monitor }) => monitor.name))}${await outgoing(req, { ...next, monitorIds: incident.monitors.map(({ monitor }) => monitor.id) }, incident, await monitors())}`;
      return new Answer(200, views.incidentView(ctx, incident, draft, box, null));
    }
    try {
      const updated = await client.incidents.update(incident.id, { status, message: text });
      await audit(signed, status === 'resolved' ? 'incident.resolve' : 'incident.update', incident.id, summary(incident), summary(updated));
      return redirect(status === 'resolved' ? '' : `incidents/${encodeURIComponent(incident.id)}`);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      return new Answer(400, views.incidentView(ctx, incident, draft, null, req.i18n.t('console.problem', { reason: oneLine(error) })));
    }
  }

  const windowSummary = (window: MaintenanceWindow) => ({ title: window.title, status: window.status, scheduledStart: window.scheduledStart, scheduledEnd: window.scheduledEnd, description: window.description ?? null, monitors: window.monitors.map(({ monitor }) => monitor.id) });

  async function maintenance(req: Request, signed: Signed, id: string | null, cancel: boolean): Promise<Answer> {
    let window: MaintenanceWindow | null = null;
    if (id !== null) {
      try {
        window = await client.maintenance.get(id);
      } catch (error) {
        if (error instanceof ApiError) return notFound(req, signed);
        throw error;
      }
    }
    const monitorList = await monitors();
    const ctx = ctxOf(req, signed);
    const fromWindow = (w: MaintenanceWindow | null): views.MaintenanceDraft => ({ title: w?.title ?? '', description: w?.description ?? '', start: w ? toLocalField(w.scheduledStart) : '', end: w ? toLocalField(w.scheduledEnd) : '', monitorIds: w?.monitors.map(({ monitor }) => monitor.id) ?? [] });
    if (req.method === 'GET') return new Answer(200, views.maintenanceFormView(ctx, window, fromWindow(window), monitorList, null));
    if (window && cancel) {
      try {
        const cancelled = await client.maintenance.cancel(window.id);
        await audit(signed, 'maintenance.cancel', window.id, windowSummary(window), windowSummary(cancelled));
        return redirect('');
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        return new Answer(400, views.maintenanceFormView(ctx, window, fromWindow(window), monitorList, req.i18n.t('console.problem', { reason: oneLine(error) })));
      }
    }
    const draft: views.MaintenanceDraft = { title: req.form.get('title') ?? '', description: req.form.get('description') ?? '', start: req.form.get('start') ?? '', end: req.form.get('end') ?? '', monitorIds: [...new Set(req.form.getAll('monitor'))] };
    const start = fromLocalField(draft.start);
    const end = fromLocalField(draft.end);
    if (!start || !end || !draft.title.trim()) return new Answer(400, views.maintenanceFormView(ctx, window, draft, monitorList, req.i18n.t('console.missingFields')));
    const input = { title: draft.title.trim(), description: draft.description, scheduledStart: start, scheduledEnd: end, monitorIds: [...draft.monitorIds] };
    try {
      const saved = window ? await client.maintenance.update(window.id, input) : await client.maintenance.create(input);
      await audit(signed, window ? 'maintenance.change' : 'maintenance.schedule', saved.id, window ? windowSummary(window) : null, windowSummary(saved));
      return redirect('');
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      return new Answer(400, views.maintenanceFormView(ctx, window, draft, monitorList, req.i18n.t('console.problem', { reason: oneLine(error) })));
    }
  }

  async function branding(req: Request, signed: Signed): Promise<Answer> {
    const pages = await Array.fromAsync(client.statusPages.listAll());
    const ctx = ctxOf(req, signed);
    if (req.method === 'GET') return new Answer(200, views.brandingView(ctx, pages, null));
    const page = pages.find((candidate) => candidate.id === req.form.get('page'));
    const color = req.form.get('brandColor') ?? '';
    if (!page) return notFound(req, signed);
    if (!/^#[0-9a-fA-F]{6}$/.test(color)) return new Answer(400, views.brandingView(ctx, pages, req.i18n.t('console.colorFormat')));
    // Through the theming history: the change is a kept version that the theming screen's Undo restores.
    const published = await theming.publishBrandColor(page, color, actor(signed), req.i18n);
    return published.ok ? redirect('branding') : new Answer(400, views.brandingView(ctx, pages, published.problem));
  }

  async function operators(req: Request, signed: Signed): Promise<Answer> {
    const ctx = ctxOf(req, signed);
    const rows = (operator: Operator) => operatorRowActions(ctx, operator);
    if (req.method === 'GET') return new Answer(200, views.operatorsView(ctx, await store.operators(), null, null, rows));
    const email = parseEmailAddress(req.form.get('email'));
    const role = req.form.get('role');
    if (!email || !isRole(role)) return new Answer(400, views.operatorsView(ctx, await store.operators(), null, req.i18n.t('console.missingFields'), rows));
    try {
      const { operator, setupToken } = await store.addOperator(email.address, role, now());
      await audit(signed, 'operator.add', operator.id, null, { email: operator.email, role });
      // Shown once, on this answer to the admin's POST (no-store); only its hash is kept.
      return new Answer(200, views.operatorsView(ctx, await store.operators(), { email: operator.email, link: `${req.origin}${CONSOLE_PATH}setup?t=${setupToken}` }, null, rows));
    } catch (error) {
      if (!(error instanceof OperatorExistsError)) throw error;
      return new Answer(409, views.operatorsView(ctx, await store.operators(), null, req.i18n.t('console.problem', { reason: email.address }), rows));
    }
  }

  const theming = createThemingScreen({ client, store, previewOrigin: options.previewOrigin ?? null, mail: { publicUrl: options.publicUrl, siteLocale: options.siteLocale, siteTimeZone: options.siteTimeZone }, now, log });

  /** The theming screen's answer: its page may frame only its own preview route, whose document carries the preview's own policy. */
  function fromTheming(req: Request, answer: ThemingAnswer): Answer {
    if (answer.kind === 'redirect') return redirect(answer.path);
    const made = new Answer(answer.status, answer.body);
    if (answer.kind === 'page' && answer.frames) made.headers['content-security-policy'] = `${SECURITY_HEADERS['content-security-policy']}; frame-src ${req.origin}${answer.frames}`;
    if (answer.kind === 'frame') {
      made.headers['content-security-policy'] = answer.contentSecurityPolicy;
      made.headers['x-frame-options'] = 'SAMEORIGIN';
    }
    return made;
  }

  /** POST operators/ID/role or operators/ID/remove (admin): audited; a removed operator's sessions end. */
  async function changeOperator(req: Request, signed: Signed, id: string, action: string): Promise<Answer> {
    const change = requestedChange(action, req.form);
    if (!change || req.method !== 'POST') return notFound(req, signed);
    const result = await store.changeOperator(id, change, now());
    if (!result.ok) {
      if (result.refusal === 'not-found') return notFound(req, signed);
      const ctx = ctxOf(req, signed);
      return new Answer(409, views.operatorsView(ctx, await store.operators(), null, req.i18n.t('console.lastAdmin'), (operator) => operatorRowActions(ctx, operator)));
    }
    if (change.kind === 'remove') await sessions.revokeAll({ kind: OPERATOR_SUBJECT, id }, now());
    await audit(signed, change.kind === 'remove' ? 'operator.remove' : 'operator.role', id, operatorAuditValue(result.before), operatorAuditValue(result.after));
    return redirect(id === signed.operator.id && change.kind === 'remove' ? 'sign-in' : 'operators');
  }

  const tools: ScreenTools = {
    client,
    audit: async () => undefined,
    publicHostName: options.publicUrl?.hostname ?? null,
  };

  /** A screen kept in its own module, given the signed-in request; its answer made an Answer. */
  async function screen(req: Request, signed: Signed, run: (tools: ScreenTools, request: Parameters<typeof monitorsScreen>[1]) => Promise<ScreenAnswer>): Promise<Answer> {
    const answer = await run({ ...tools, audit: (action, target, before, after) => audit(signed, action, target, before, after) }, { method: req.method, form: req.form, ctx: ctxOf(req, signed), role: signed.operator.role });
    if ('redirect' in answer) return redirect(answer.redirect);
    if ('refused' in answer) return answer.refused === 'forbidden' ? forbidden(req, signed) : notFound(req, signed);
    const made = new Answer(answer.status, answer.body);
    made.download = answer.download ?? null;
    return made;
  }

  /** What a signed-in route needs. */
  function permissionOf(method: 'GET' | 'POST', path: string): Permission {
    if (path === 'operators' || path.startsWith('operators/')) return 'operators';
    if (/^pages\/[^/]+\/access(?:\/|$)/.test(path)) return 'operators';
    if (path === 'branding' || path === 'theming' || path.startsWith('theming/')) return 'branding';
    if (method === 'GET' && path !== 'incidents/new' && path !== 'maintenance/new') return 'read';
    return 'incidents';
  }

  async function route(request: IncomingMessage, req: Request): Promise<Answer> {
    const { path, method } = req;
    if (path === PASSKEY_SCRIPT_PATH && method === 'GET') {
      const script = new Answer(200, PASSKEY_SCRIPT);
      script.headers['content-type'] = 'text/javascript; charset=utf-8';
      return script;
    }
    if (path === 'sign-in') return signIn(request, req);
    if (isPasskeySignInPath(path)) return fromPasskeys(req, await passkeySignIn(request, req), null);
    if (path === 'setup') return setup(request, req);
    const signed = await signedIn(request, req.secure);
    if (!signed) return method === 'GET' ? redirect('sign-in') : message(req, null, 403, req.i18n.t('console.refused'), req.i18n.t('console.refused'));
    if (method === 'POST' && !checkCsrfToken(signed.token, req.form.get(CSRF_FIELD))) return message(req, signed, 403, req.i18n.t('console.refused'), req.i18n.t('console.refused'));
    if (path === 'sign-out' || path === 'sign-out-everywhere') {
      if (method !== 'POST') return notFound(req, signed);
      if (path === 'sign-out') await sessions.revoke(signed.token, now());
      else await sessions.revokeAll({ kind: OPERATOR_SUBJECT, id: signed.operator.id }, now());
      const answer = redirect('sign-in');
      answer.cookies.push(clearCookie({ name: SESSION_COOKIE, secure: req.secure, path: CONSOLE_PATH }));
      return answer;
    }
    // Any operator manages their own passkeys.
    if (isPasskeysPath(path)) return fromPasskeys(req, await passkeys.signedIn({ method, path, form: req.form, ctx: ctxOf(req, signed), operator: signed.operator, csrf: signed.csrf }), signed);
    if (!may(signed.operator.role, permissionOf(method, path))) return forbidden(req, signed);
    if (path === '' && method === 'GET') {
      const [incidents, windows] = await Promise.all([Array.fromAsync(client.incidents.listAll()), Array.fromAsync(client.maintenance.listAll())]);
      const active = incidents.filter((incident) => incident.status !== 'resolved').sort((a, b) => b.startedAt.localeCompare(a.startedAt));
      const upcoming = windows.filter((window) => window.status === 'scheduled' || window.status === 'in_progress').sort((a, b) => a.scheduledStart.localeCompare(b.scheduledStart));
      return new Answer(200, views.homeView(ctxOf(req, signed), active, upcoming));
    }
    if (path === 'incidents/new' && method === 'GET') return incidentForm(req, signed, null, false, null, 200);
    if (path === 'incidents' && method === 'POST') return openIncident(req, signed);
    if (path === 'maintenance/new' && method === 'GET') return maintenance(req, signed, null, false);
    if (path === 'maintenance' && method === 'POST') return maintenance(req, signed, null, false);
    if (path === 'branding') return branding(req, signed);
    if (path === 'theming' || path.startsWith('theming/')) return fromTheming(req, await theming.handle({ method, path, query: req.query, form: req.form, ctx: { ...ctxOf(req, signed), operator: signed.operator }, actor: actor(signed), origin: req.origin }));
    if (path === 'operators') return operators(req, signed);
    const operatorChange = /^operators\/([A-Za-z0-9_-]{1,100})\/(role|remove)$/.exec(path);
    if (operatorChange?.[1] && operatorChange[2]) return changeOperator(req, signed, operatorChange[1], operatorChange[2]);
    if (path === 'monitors') return screen(req, signed, (t, r) => monitorsScreen(t, r, null));
    const monitor = /^monitors\/([A-Za-z0-9_-]{1,100})$/.exec(path);
    if (monitor?.[1] && method === 'POST') return screen(req, signed, (t, r) => monitorsScreen(t, r, monitor[1] ?? null));
    if (path === 'subscribers' || path === 'subscribers/export' || path === 'subscribers/remove' || path === 'subscribers/remove-endpoint') {
      const part = path === 'subscribers' ? 'list' : path === 'subscribers/export' ? 'export' : path === 'subscribers/remove' ? 'remove' : 'remove-endpoint';
      if ((part === 'remove' || part === 'remove-endpoint') !== (method === 'POST')) return notFound(req, signed);
      const subscriberStore = options.subscribers ? await options.subscribers() : null;
      return screen(req, signed, (t, r) => subscribersScreen(t, r, subscriberStore, part, req.query));
    }
    const access = /^pages\/([A-Za-z0-9_-]{1,100})\/access(?:\/([a-z-]{1,20}))?$/.exec(path);
    if (access?.[1]) {
      const action = access[2] ?? null;
      if ((action === null) !== (method === 'GET') || (action !== null && !isPageAccessAction(action))) return notFound(req, signed);
      const audienceStore = options.audiences ? await options.audiences() : null;
      return screen(req, signed, (t, r) => pageAccessScreen(t, r, audienceStore, access[1] ?? '', action !== null && isPageAccessAction(action) ? action : null, options.publicUrl?.origin ?? req.origin, now()));
    }
    if (path === 'pages') return screen(req, signed, (t, r) => pagesScreen(t, r, null, 'settings'));
    const statusPage = /^pages\/([A-Za-z0-9_-]{1,100})(?:\/(monitors|delete))?$/.exec(path);
    if (statusPage?.[1] && (method === 'POST' || !statusPage[2])) return screen(req, signed, (t, r) => pagesScreen(t, r, statusPage[1] ?? null, statusPage[2] === 'monitors' || statusPage[2] === 'delete' ? statusPage[2] : 'settings'));
    if (path === 'audit' && method === 'GET') return new Answer(200, views.auditView(ctxOf(req, signed), await store.audit(200)));
    const incident = /^incidents\/([A-Za-z0-9_-]{1,100})$/.exec(path);
    if (incident?.[1]) return incidentPage(req, signed, incident[1]);
    const window = /^maintenance\/([A-Za-z0-9_-]{1,100})(\/cancel)?$/.exec(path);
    if (window?.[1] && (method === 'POST' || !window[2])) return maintenance(req, signed, window[1], window[2] !== undefined);
    return notFound(req, signed);
  }

  return {
    matches: isConsoleTarget,
    async handle(request, response) {
      const head = request.method === 'HEAD';
      const address = options.clientAddress ? options.clientAddress(request.socket.remoteAddress, request.headers['x-forwarded-for']) : (request.socket.remoteAddress ?? 'unknown');
      const gate = consoleGate(options, request.headers.host, address);
      if (!gate.ok) {
        // Not here at all (a custom domain, another name): the same plain 404 as any unknown path.
        if (gate.status === 404) {
          response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
          response.end(head ? undefined : 'Not Found\n');
          request.resume();
          return;
        }
      }
      const i18n = translator(negotiateLocale(request.headers['accept-language'], options.siteLocale), options.siteTimeZone);
      const url = new URL(request.url ?? '/', 'http://console.invalid');
      const path = url.pathname.startsWith(CONSOLE_PATH) ? url.pathname.slice(CONSOLE_PATH.length).replace(/\/$/, '') : '';
      const method = request.method === 'POST' ? 'POST' : request.method === 'GET' || head ? 'GET' : null;
      const base = { path, query: url.searchParams, i18n, address };
      if (!gate.ok) {
        request.resume();
        return send(response, new Answer(403, views.messageView({ i18n, operator: null, csrf: '' }, i18n.t('console.httpsOnly'), i18n.t('console.httpsOnly'))), head);
      }
      if (!method) {
        request.resume();
        response.writeHead(405, { allow: 'GET, HEAD, POST', 'cache-control': 'no-store', 'content-type': 'text/plain; charset=utf-8' });
        response.end('Method Not Allowed\n');
        return;
      }
      const req: Request = { ...base, method, form: new URLSearchParams(), origin: gate.origin, secure: gate.secure };
      try {
        if (method === 'POST') {
          const form = await readForm(request, path === 'theming' ? THEMING_BODY_BYTES : MAX_BODY_BYTES);
          const origin = checkRequestOrigin(request.headers, gate.origin);
          if (!origin.ok || form === null) return send(response, message(req, null, 403, i18n.t('console.refused'), i18n.t('console.refused')), false);
          req.form = form;
          // The sign-in and set-up forms carry the pre-session's token.
          if ((path === 'sign-in' || path === 'setup' || isPasskeySignInPath(path)) && !checkCsrfToken(readCookie(request.headers.cookie, cookieName({ name: PRE_COOKIE, secure: gate.secure })), form.get(CSRF_FIELD), 'pre')) {
            return send(response, message(req, null, 403, i18n.t('console.refused'), i18n.t('console.refused')), false);
          }
        }
        send(response, await route(request, req), head);
      } catch (error) {
        log(`console: ${request.method} ${path} failed (${oneLine(error)})`);
        if (!response.headersSent) send(response, message(req, null, 500, i18n.t('console.failed'), i18n.t('console.failed')), head);
      }
    },
  };
}
