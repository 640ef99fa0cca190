/**
 * The console's theming screen (editor and up; the handler checks the role before calling here):
 * a page's brand colour, logo, header, footer and custom CSS edited beside a live preview, over
 * the theming engine (src/site/theming/, src/site/preview/). Routes, all under the console:
 *
 * - GET  theming?page&template&scheme&direction&width — the screen, with the operator's draft if any;
 * - POST theming (intent preview | publish | discard) — keeps the draft server-side (so the frame,
 *   a separate request, can render it, on any replica) and redirects back; publish writes through
 *   the typed client (PATCH /status-pages/:id) and keeps the replaced version for undo;
 * - POST theming/undo — writes the newest kept version back;
 * - GET  theming/preview?… — the frame's document: the site's own rendering of the page with the
 *   draft laid over (requestPreview), or for the e-mail the subscribers' own mail preview run here
 *   (outgoing-preview.ts), served with the preview's own policy (sandbox, no script, framed by the
 *   console only).
 *
 * Every publish and undo is recorded in the audit trail with the fields' values before and after.
 * The brand colour screen publishes through here too (publishBrandColor), so its change is a
 * version in the same history that Undo takes back.
 */
import { ApiError, type ApiClient, type StatusPage } from '../api/index.ts';
import { brandContrast } from '../site/theming/brand-contrast.ts';
import { BRANDING_FIELDS, brandingOf, normalized, publishBranding, undoBranding, type Branding, type BrandingDraft, type BrandingField } from '../site/theming/publish.ts';
import { stripReport } from '../site/theming/strip-report.ts';
import { readThemeTexts } from '../site/theming/theme-files.ts';
import { requestPreview } from '../site/preview/preview-client.ts';
import { DEFAULT_BRAND_COLOR } from '../site/lib/css.ts';
import { DEFAULT_LANGUAGE_SETTINGS, type LanguageSettings } from '../site/i18n/settings.ts';
import type { Locale } from '../site/i18n/locales.ts';
import { themingMailPreview } from './outgoing-preview.ts';
import type { ThemeTexts } from '../../themes/contrast.ts';
import { escape } from './html.ts';
import { CONSOLE_PATH } from './paths.ts';
import type { ConsoleStore } from './store.ts';
import { readView, viewQuery, type PreviewView } from './theming-choices.ts';
import { themingView, type ThemingScreenData } from './theming-view.ts';
import { messageView, type ViewContext } from './views.ts';

export interface ThemingOptions {
  client: Pick<ApiClient, 'statusPages' | 'organization' | 'monitors' | 'incidents'>;
  store: ConsoleStore;
  /** For the e-mail's links and language: SITE_PUBLIC_URL (else the request's origin), SITE_LOCALE and its zone. */
  mail: { publicUrl: URL | null; siteLocale: Locale; siteTimeZone: string };
  /** The site thread's internal origin, which answers previews; null: no preview (the screen says so). */
  previewOrigin: string | null;
  now: () => number;
  log: (line: string) => void;
}

export interface ThemingRequest {
  method: 'GET' | 'POST';
  /** 'theming', 'theming/undo' or 'theming/preview'. */
  path: string;
  query: URLSearchParams;
  form: URLSearchParams;
  ctx: ViewContext & { operator: NonNullable<ViewContext['operator']> };
  /** Who, for the audit trail and the kept version. */
  actor: string;
  /** The console's origin as the browser reached it (the e-mail's links without SITE_PUBLIC_URL). */
  origin: string;
}

export type ThemingAnswer =
  /** `frames`: the path the screen's frame loads, which the console's policy must allow framing. */
  | { kind: 'page'; status: number; body: string; frames: string | null }
  | { kind: 'redirect'; path: string }
  /** The frame's own document, with its own policy. */
  | { kind: 'frame'; status: number; body: string; contentSecurityPolicy: string };

export const THEMING_PREVIEW_PATH = `${CONSOLE_PATH}theming/preview`;
/** For a message in the frame: nothing may run or load, and only the console frames it. */
const FRAME_MESSAGE_POLICY = "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'self'; sandbox";
const PREVIEW_TIMEOUT_MS = 15_000;

const oneLine = (error: unknown) => (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';

/** Only the fields named, with their values (for the audit trail's before and after). */
function only(branding: Branding, fields: readonly BrandingField[]): Record<string, string | null> {
  const picked: Record<string, string | null> = {};
  for (const field of fields) picked[field] = branding[field] ?? null;
  return picked;
}

function draftFromForm(form: URLSearchParams): BrandingDraft {
  const draft: BrandingDraft = {};
  for (const field of BRANDING_FIELDS) draft[field] = (form.get(field) ?? '').replace(/\r\n/g, '\n');
  return draft;
}

export function createThemingScreen(options: ThemingOptions) {
  const { client, store, now, log } = options;
  const { history, drafts } = store.theming();
  let themeTexts: ThemeTexts | null = null;
  const texts = () => (themeTexts ??= readThemeTexts());

  const pages = (): Promise<StatusPage[]> => Array.fromAsync(client.statusPages.listAll());

  const redirect = (page: StatusPage, view: PreviewView, done?: string): ThemingAnswer => ({ kind: 'redirect', path: `theming?${viewQuery(page.id, view, done ? { done } : {})}` });
  const notFound = (req: ThemingRequest): ThemingAnswer => ({ kind: 'page', status: 404, body: messageView(req.ctx, req.ctx.i18n.t('console.notFound'), req.ctx.i18n.t('console.notFound')), frames: null });

  async function screen(req: ThemingRequest, all: readonly StatusPage[], page: StatusPage, view: PreviewView, status: number, extra: { values?: BrandingDraft; notice?: string | null; problem?: string | null; issues?: ThemingScreenData['issues'] } = {}): Promise<ThemingAnswer> {
    const { i18n } = req.ctx;
    const [saved, undo] = await Promise.all([drafts.get(req.ctx.operator.id, page.id), history.peek(page.id)]);
    const shown = extra.values ?? saved ?? {};
    const published = brandingOf(page);
    const values = {} as Record<BrandingField, string>;
    for (const field of BRANDING_FIELDS) values[field] = (field in shown ? shown[field] : published[field]) ?? '';
    const frameSrc = `${THEMING_PREVIEW_PATH}?${viewQuery(page.id, view, { v: now().toString(36) })}`;
    const data: ThemingScreenData = {
      pages: all,
      page,
      values,
      view,
      hasDraft: saved !== null,
      contrast: brandContrast(normalized('brandColor', values.brandColor) ?? DEFAULT_BRAND_COLOR, texts(), i18n),
      strip: stripReport(values, i18n),
      undo,
      notice: extra.notice ?? null,
      problem: extra.problem ?? null,
      issues: extra.issues ?? [],
      frameSrc,
    };
    return { kind: 'page', status, body: themingView(req.ctx, data), frames: THEMING_PREVIEW_PATH };
  }

  function frameMessage(req: ThemingRequest, status: number, text: string): ThemingAnswer {
    const { i18n } = req.ctx;
    const body = `<!doctype html><html lang="${escape(i18n.locale)}" dir="${i18n.dir}"><head><meta charset="utf-8"><title>${escape(i18n.t('console.theming.previewHeading'))}</title></head><body><p>${escape(text)}</p></body></html>`;
    return { kind: 'frame', status, body, contentSecurityPolicy: FRAME_MESSAGE_POLICY };
  }

  async function preview(req: ThemingRequest): Promise<ThemingAnswer> {
    const { i18n } = req.ctx;
    const pageId = req.query.get('page') ?? '';
    const page = (await pages()).find((candidate) => candidate.id === pageId);
    if (!page) return frameMessage(req, 404, i18n.t('theming.preview.noPage'));
    const view = readView(req.query);
    const draft = (await drafts.get(req.ctx.operator.id, page.id)) ?? {};
    // The e-mail is rendered on this thread; the site's templates by the site's thread.
    if (view.template === 'email') return mailFrame(req, page, view, draft);
    if (!options.previewOrigin) return frameMessage(req, 503, i18n.t('console.theming.previewOff'));
    try {
      const result = await requestPreview(options.previewOrigin, { slug: page.slug, template: view.template, scheme: view.scheme, direction: view.direction, width: view.width, draft }, { signal: AbortSignal.timeout(PREVIEW_TIMEOUT_MS) });
      if (!result.ok) return frameMessage(req, result.status, i18n.t('console.theming.previewFailed', { reason: result.message }));
      return { kind: 'frame', status: 200, body: result.html, contentSecurityPolicy: result.contentSecurityPolicy };
    } catch (error) {
      log(`console: theming preview of ${page.id} failed (${oneLine(error)})`);
      return frameMessage(req, 502, i18n.t('console.theming.previewOff'));
    }
  }

  const languages: LanguageSettings = { ...DEFAULT_LANGUAGE_SETTINGS, siteLocale: options.mail.siteLocale, siteLocales: [options.mail.siteLocale], siteTimeZone: options.mail.siteTimeZone };

  /** The subscribers' e-mail about the page's newest incident, with the draft's branding, from the API's data as it is now. */
  async function mailFrame(req: ThemingRequest, page: StatusPage, view: PreviewView, draft: BrandingDraft): Promise<ThemingAnswer> {
    const [organization, pages, monitors, incidents] = await Promise.all([client.organization.get(), Array.fromAsync(client.statusPages.listAll()), Array.fromAsync(client.monitors.listAll()), Array.fromAsync(client.incidents.listAll())]);
    const { publicUrl } = options.mail;
    const links = publicUrl ? { origin: publicUrl.origin, configured: true } : { origin: req.origin, configured: false };
    const result = themingMailPreview({ organization, pages, monitors, incidents, request: { slug: page.slug, draft, direction: view.direction, width: view.width }, links, languages, now: new Date(now()) });
    if (!result.ok) return frameMessage(req, result.status, req.ctx.i18n.t('console.theming.previewFailed', { reason: result.message }));
    return { kind: 'frame', status: 200, body: result.html, contentSecurityPolicy: result.contentSecurityPolicy };
  }

  async function post(req: ThemingRequest, all: readonly StatusPage[], page: StatusPage): Promise<ThemingAnswer> {
    const { i18n, operator } = req.ctx;
    const view = readView(req.form);
    const intent = req.form.get('intent') ?? 'preview';
    if (intent === 'discard') {
      await drafts.discard(operator.id, page.id);
      return redirect(page, view, 'discarded');
    }
    const draft = draftFromForm(req.form);
    if (intent !== 'publish') {
      await drafts.save(operator.id, page.id, draft, now());
      return redirect(page, view);
    }
    try {
      const result = await publishBranding({ writer: client.statusPages, history, page, draft, by: req.actor, now: new Date(now()), i18n });
      if (!result.ok) {
        // Kept as the draft, so that the frame shows what was about to be published.
        await drafts.save(operator.id, page.id, draft, now());
        return screen(req, all, page, view, result.reason === 'invalid' ? 400 : 200, { values: draft, problem: result.message, issues: result.issues ?? [] });
      }
      await store.record({ actor: req.actor, action: 'page.branding.publish', target: page.id, before: only(brandingOf(page), result.changed), after: only(brandingOf(result.page), result.changed) }, now());
      await drafts.discard(operator.id, page.id);
      return redirect(page, view, 'published');
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      await drafts.save(operator.id, page.id, draft, now());
      return screen(req, all, page, view, 400, { values: draft, problem: i18n.t('console.problem', { reason: oneLine(error) }) });
    }
  }

  async function undo(req: ThemingRequest, all: readonly StatusPage[], page: StatusPage): Promise<ThemingAnswer> {
    const { i18n } = req.ctx;
    const view = readView(req.form);
    try {
      const result = await undoBranding({ writer: client.statusPages, history, pageId: page.id, i18n });
      if (!result.ok) return screen(req, all, page, view, 409, { problem: result.message });
      await store.record({ actor: req.actor, action: 'page.branding.undo', target: page.id, before: only(brandingOf(page), result.restored), after: result.page ? only(brandingOf(result.page), result.restored) : null }, now());
      return redirect(page, view, 'undone');
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      return screen(req, all, page, view, 400, { problem: i18n.t('console.problem', { reason: oneLine(error) }) });
    }
  }

  const NOTICES = { published: 'console.theming.published', undone: 'console.theming.undone', discarded: 'console.theming.discarded' } as const;

  return {
    /**
     * The brand colour screen's save: a one-field draft published like the theming screen's (kept
     * version, audit with before and after), so Undo there restores the colour it replaced. The
     * same colour again publishes nothing and succeeds; `problem` is the words to show otherwise.
     */
    async publishBrandColor(page: StatusPage, color: string, actor: string, i18n: ThemingRequest['ctx']['i18n']): Promise<{ ok: true } | { ok: false; problem: string }> {
      try {
        const result = await publishBranding({ writer: client.statusPages, history, page, draft: { brandColor: color }, by: actor, now: new Date(now()), i18n });
        if (!result.ok) return result.reason === 'nothing-to-publish' ? { ok: true } : { ok: false, problem: [result.message, ...(result.issues ?? []).map((issue) => issue.message)].join(' ') };
        await store.record({ actor, action: 'page.branding.publish', target: page.id, before: only(brandingOf(page), result.changed), after: only(brandingOf(result.page), result.changed) }, now());
        return { ok: true };
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        return { ok: false, problem: i18n.t('console.problem', { reason: oneLine(error) }) };
      }
    },

    async handle(req: ThemingRequest): Promise<ThemingAnswer> {
      if (req.path === 'theming/preview') return req.method === 'GET' ? preview(req) : notFound(req);
      if (req.path !== 'theming' && req.path !== 'theming/undo') return notFound(req);
      if (req.path === 'theming/undo' && req.method !== 'POST') return notFound(req);
      const all = await pages();
      const { i18n } = req.ctx;
      if (req.method === 'GET') {
        if (all.length === 0) return { kind: 'page', status: 200, body: messageView(req.ctx, i18n.t('console.theming.nav'), i18n.t('console.theming.noPages')), frames: null };
        const wanted = req.query.get('page');
        const page = wanted ? all.find((candidate) => candidate.id === wanted) : all[0];
        if (!page) return notFound(req);
        const done = req.query.get('done');
        const notice = done && done in NOTICES ? i18n.t(NOTICES[done as keyof typeof NOTICES]) : null;
        return screen(req, all, page, readView(req.query), 200, { notice });
      }
      const page = all.find((candidate) => candidate.id === req.form.get('page'));
      if (!page) return notFound(req);
      return req.path === 'theming/undo' ? undo(req, all, page) : post(req, all, page);
    },
  };
}
