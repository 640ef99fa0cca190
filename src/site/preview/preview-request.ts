/**
 * What the console asks the site to preview, and where: one internal route of the site's thread,
 * `POST /_porchlight/preview` with the header below and a JSON body. It is never reachable from
 * outside: the front server answers every method but GET, HEAD and OPTIONS with a 405 before
 * routing (only the subscription routes are relayed, to their own thread) and drops the header
 * from clients (view/internal-request.ts); the exporter only GETs. Pure: the site's middleware and
 * the console's client (preview-client.ts) share it. The e-mail template is not here: the mails are
 * the subscribers', and so is their preview (src/subscribers/mail-preview.ts, same fields but
 * `template` and `scheme`).
 */
import { z } from 'zod';
import { brandingDraftSchema } from './draft.ts';
import { PREVIEW_REQUEST_HEADER } from '../view/internal-request.ts';
import { SHIPPED_LOCALES, type Locale } from '../i18n/locales.ts';

export const PREVIEW_PATH = '/_porchlight/preview';
export const PREVIEW_HEADER = PREVIEW_REQUEST_HEADER;
/** A draft's CSS and HTML stay far below this (50 KB + 2 × 10 KB at most). */
export const MAX_PREVIEW_BODY_BYTES = 256 * 1024;

export const PREVIEW_TEMPLATES = ['status', 'incident', 'history', 'component', 'widget', 'card'] as const;
export type PreviewTemplate = (typeof PREVIEW_TEMPLATES)[number];

/** light: the default theme in its light colours; dark: its dark colours; high-contrast: that theme, light. */
export const PREVIEW_SCHEMES = ['light', 'dark', 'high-contrast'] as const;
export type PreviewScheme = (typeof PREVIEW_SCHEMES)[number];

export const PREVIEW_WIDTHS = [375, 1280] as const;
export type PreviewWidth = (typeof PREVIEW_WIDTHS)[number];

/** The right-to-left language a `rtl` preview is shown in (the only one shipped). */
export const RTL_PREVIEW_LOCALE: Locale = 'ar';

const id = z.string().min(1).max(200);

export const previewRequestSchema = z.object({
  slug: z.string().min(1).max(64),
  template: z.enum(PREVIEW_TEMPLATES),
  /** incident: which incident (default: the page's newest); component: which monitor (default: its first). */
  incidentId: id.optional(),
  monitorId: id.optional(),
  /** history: which month, YYYY-MM (default: the current one). */
  month: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/).optional(),
  draft: brandingDraftSchema.default({}),
  scheme: z.enum(PREVIEW_SCHEMES).default('light'),
  direction: z.enum(['ltr', 'rtl']).default('ltr'),
  width: z.union([z.literal(375), z.literal(1280)]).default(1280),
  /** A left-to-right language to show (default: the page's own); `rtl` always shows RTL_PREVIEW_LOCALE. */
  locale: z.enum(SHIPPED_LOCALES as [Locale, ...Locale[]]).optional(),
});
export type PreviewRequest = z.output<typeof previewRequestSchema>;
export type PreviewRequestInput = z.input<typeof previewRequestSchema>;

/** The language a preview speaks: `rtl` always RTL_PREVIEW_LOCALE, else the one asked, else the page's own. */
export function previewLocale(request: { direction: 'ltr' | 'rtl'; locale?: Locale | undefined }, pageLocale: Locale): Locale {
  return request.direction === 'rtl' ? RTL_PREVIEW_LOCALE : (request.locale ?? pageLocale);
}

/** Why a preview cannot be drawn: the console shows `message` (from the catalogs). */
export type PreviewErrorCode = 'bad-request' | 'no-page' | 'no-incident' | 'no-monitor' | 'unavailable';
