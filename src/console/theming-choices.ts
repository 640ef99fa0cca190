/**
 * What the theming screen previews: a template of the site (the preview route's, src/site/preview/),
 * a colour scheme, a direction and a width, read from a query or a form (unknown values fall back
 * to the defaults) and written back into the screen's and the frame's addresses.
 */
import { PREVIEW_SCHEMES, PREVIEW_TEMPLATES, PREVIEW_WIDTHS, type PreviewScheme, type PreviewTemplate, type PreviewWidth } from '../site/preview/preview-request.ts';

/** The site's templates, and the subscribers' e-mail (rendered on the console's thread, outgoing-preview.ts). */
export const THEMING_TEMPLATES = [...PREVIEW_TEMPLATES, 'email'] as const;
export type ThemingTemplate = PreviewTemplate | 'email';

export interface PreviewView {
  template: ThemingTemplate;
  scheme: PreviewScheme;
  direction: 'ltr' | 'rtl';
  width: PreviewWidth;
}

const pick = <T extends string | number>(values: readonly T[], wanted: string | null, fallback: T): T => values.find((value) => String(value) === wanted) ?? fallback;

export function readView(params: URLSearchParams): PreviewView {
  return {
    template: pick<ThemingTemplate>(THEMING_TEMPLATES, params.get('template'), 'status'),
    scheme: pick(PREVIEW_SCHEMES, params.get('scheme'), 'light'),
    direction: pick(['ltr', 'rtl'] as const, params.get('direction'), 'ltr'),
    width: pick(PREVIEW_WIDTHS, params.get('width'), 1280),
  };
}

/** `page=…&template=…&scheme=…&direction=…&width=…` (plus `extra`), for the screen's and the frame's addresses. */
export function viewQuery(pageId: string, view: PreviewView, extra: Record<string, string> = {}): string {
  return new URLSearchParams({ page: pageId, template: view.template, scheme: view.scheme, direction: view.direction, width: String(view.width), ...extra }).toString();
}
