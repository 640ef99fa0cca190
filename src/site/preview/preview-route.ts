/**
 * The site's side of a preview (see preview-request.ts): the template's own route renders the
 * page of the live data with the draft laid over it (`locals.preview`, applied where every route
 * finds its page: view/resolve-page.ts), in the scheme's theme and the language asked; the answer
 * becomes a preview document (preview-document.ts). Nothing here is cached: the answer is
 * `no-store`, the front server never sees this route (it is POST-only and internal), and the
 * exporter never asks for it. The e-mail's preview is the subscribers' (src/subscribers/mail-preview.ts):
 * the site renders no mail.
 */
import type { APIContext, MiddlewareNext } from 'astro';
import type { StatusPage } from '../../contract/index.ts';
import type { ThemeName } from '../config.ts';
import { siteConfig } from '../running-config.ts';
import type { Snapshot } from '../data/snapshot.ts';
import { translator } from '../i18n/translator.ts';
import { pageLanguage } from '../i18n/settings.ts';
import type { Locale } from '../i18n/locales.ts';
import { CARD_HEIGHT, CARD_WIDTH } from '../outputs/card.ts';
import { findPageBySlug } from '../view/routing.ts';
import { pageContext } from '../view/page-context.ts';
import { slugBasePath } from '../view/hrefs.ts';
import { withDraft } from './draft.ts';
import { previewIncident } from './preview-incident.ts';
import { cardPreviewDocument, pagePreviewDocument, type PreviewDocument } from './preview-document.ts';
import { MAX_PREVIEW_BODY_BYTES, PREVIEW_HEADER, PREVIEW_PATH, previewRequestSchema, previewLocale, type PreviewErrorCode, type PreviewRequest, type PreviewScheme } from './preview-request.ts';

/** What a preview request puts in `locals` for the template's route. */
export interface PreviewState {
  draft: PreviewRequest['draft'];
  theme: ThemeName;
  locale: Locale;
}

export const SCHEME_THEMES: Readonly<Record<PreviewScheme, ThemeName>> = { light: 'default', dark: 'dark', 'high-contrast': 'high-contrast' };

/** Only the console's own internal request: POST, the internal header, the exact path. */
export function isPreviewRequest(request: Request, pathname: string): boolean {
  return pathname === PREVIEW_PATH && request.method === 'POST' && request.headers.has(PREVIEW_HEADER);
}

const BASE_HEADERS = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-resource-policy': 'same-origin',
};

function errorAnswer(status: number, code: PreviewErrorCode, message: string): Response {
  return new Response(JSON.stringify({ error: code, message }), { status, headers: { ...BASE_HEADERS, 'content-type': 'application/json; charset=utf-8' } });
}

function documentAnswer(document: PreviewDocument, width: number): Response {
  return new Response(document.html, {
    status: 200,
    headers: {
      ...BASE_HEADERS,
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': document.policy.header,
      'x-porchlight-preview-width': String(width),
    },
  });
}

async function readBody(request: Request): Promise<unknown> {
  const text = await request.text();
  if (Buffer.byteLength(text) > MAX_PREVIEW_BODY_BYTES) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function pickMonitor(snapshot: Snapshot, page: StatusPage, wanted: string | undefined): string | null {
  const context = pageContext(snapshot, page, { basePath: '', now: snapshot.fetchedAt, stale: false });
  const rows = context.rows.map((row) => row.monitorId);
  if (wanted) return rows.includes(wanted) ? wanted : null;
  return rows[0] ?? null;
}

/** A GET of the template's own route, for `next()` (a rewrite keeps the request's method otherwise). */
function routeRequest(context: APIContext, path: string): Request {
  return new Request(new URL(path, context.url), { method: 'GET', headers: { accept: 'text/html', host: context.url.host } });
}

export async function previewResponse(context: APIContext, next: MiddlewareNext): Promise<Response> {
  const parsed = previewRequestSchema.safeParse(await readBody(context.request));
  if (!parsed.success) return errorAnswer(400, 'bad-request', parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; '));
  const request = parsed.data;
  const data = context.locals.data;
  if (!data) return errorAnswer(503, 'unavailable', 'no status data yet');
  const config = siteConfig();
  const live = findPageBySlug(data.snapshot.pages, request.slug);
  const language = pageLanguage(config.languages, request.slug);
  const locale = previewLocale(request, language.locale);
  const i18n = translator(locale, language.timeZone);
  if (!live) return errorAnswer(404, 'no-page', i18n.t('theming.preview.noPage'));
  const page = withDraft(live, request.draft);
  const root = slugBasePath('', live.slug);

  let path: string;
  switch (request.template) {
    case 'status':
      path = `${root}/`;
      break;
    case 'history':
      path = request.month ? `${root}/history/${request.month}/` : `${root}/history/`;
      break;
    case 'widget':
      path = `${root}/widget`;
      break;
    case 'card':
      path = `${root}/card.png`;
      break;
    case 'incident': {
      const incident = previewIncident(data.snapshot, page, request.incidentId);
      if (!incident) return errorAnswer(404, 'no-incident', i18n.t('theming.preview.noIncident'));
      path = `${root}/incidents/${encodeURIComponent(incident.id)}/`;
      break;
    }
    case 'component': {
      const monitorId = pickMonitor(data.snapshot, page, request.monitorId);
      if (!monitorId) return errorAnswer(404, 'no-monitor', i18n.t('theming.preview.noMonitor'));
      path = `${root}/components/${encodeURIComponent(monitorId)}/`;
      break;
    }
  }

  context.locals.preview = { draft: request.draft, theme: SCHEME_THEMES[request.scheme], locale };
  const rendered = await next(routeRequest(context, path));
  if (rendered.status !== 200) return errorAnswer(rendered.status === 404 ? 404 : 502, rendered.status === 404 ? 'no-page' : 'unavailable', i18n.t('theming.preview.noPage'));
  if (request.template === 'card') {
    const png = new Uint8Array(await rendered.arrayBuffer());
    return documentAnswer(cardPreviewDocument(png, { alt: i18n.t('share.cardAltPlain', { name: page.name }), lang: locale, dir: i18n.dir, width: CARD_WIDTH, height: CARD_HEIGHT }), request.width);
  }
  return documentAnswer(pagePreviewDocument(await rendered.text(), request.scheme), request.width);
}
