/**
 * The theming screen as HTML (theming-screen.ts decides everything): the draft's fields, the
 * preview's choices and the Preview / Publish / Discard buttons in one plain form, beside the
 * sandboxed frame of the preview; below, the brand colour's contrast and what the sanitizers
 * would strip. Every text from the catalogs; logical properties only, so right-to-left needs nothing.
 */
import type { StatusPage } from '../api/index.ts';
import type { Translator } from '../site/i18n/translator.ts';
import type { ParamsOf, TextKey } from '../site/i18n/catalog.ts';
import { SURFACES, THEME_VARIANTS, type BrandContrastReport } from '../site/theming/brand-contrast.ts';
import type { BrandingField, BrandingVersion } from '../site/theming/publish.ts';
import type { StripItem, StripReport } from '../site/theming/strip-report.ts';
import { PREVIEW_SCHEMES, PREVIEW_WIDTHS } from '../site/preview/preview-request.ts';
import { html, trusted, type Html } from './html.ts';
import { consoleHref } from './paths.ts';
import { THEMING_TEMPLATES, type PreviewView } from './theming-choices.ts';
import { csrfField, layout, problemLine, type ViewContext } from './views.ts';

export interface ThemingScreenData {
  pages: readonly Pick<StatusPage, 'id' | 'name'>[];
  page: StatusPage;
  /** The form's values: the operator's draft, else the page as published. */
  values: Record<BrandingField, string>;
  view: PreviewView;
  hasDraft: boolean;
  contrast: BrandContrastReport;
  strip: StripReport;
  undo: BrandingVersion | null;
  /** What just happened (published, undone, discarded), said once. */
  notice: string | null;
  problem: string | null;
  issues: readonly { field: BrandingField; message: string }[];
  /** The preview frame's address (the console's own preview route). */
  frameSrc: string;
}

/** A catalog text without placeholders. */
type PlainKey = { [K in TextKey]: keyof ParamsOf<K> extends never ? K : never }[TextKey];

const TEMPLATE_LABELS: Record<(typeof THEMING_TEMPLATES)[number], PlainKey> = {
  status: 'console.theming.template.status',
  incident: 'console.theming.template.incident',
  history: 'console.theming.template.history',
  component: 'console.theming.template.component',
  widget: 'console.theming.template.widget',
  card: 'console.theming.template.card',
  email: 'console.theming.template.email',
};
const SCHEME_LABELS: Record<(typeof PREVIEW_SCHEMES)[number], PlainKey> = { light: 'console.theming.scheme.light', dark: 'console.theming.scheme.dark', 'high-contrast': 'console.theming.scheme.highContrast' };
const DIRECTION_LABELS: Record<'ltr' | 'rtl', PlainKey> = { ltr: 'console.theming.direction.ltr', rtl: 'console.theming.direction.rtl' };

function select(id: string, label: string, values: readonly (string | number)[], chosen: string | number, text: (value: string) => string): Html {
  return html`<label for="${id}">${label}</label><select id="${id}" name="${id}">${values.map((value) => html`<option value="${value}"${String(value) === String(chosen) ? trusted(' selected') : ''}>${text(String(value))}</option>`)}</select>`;
}

function stripList(i18n: Translator, items: readonly StripItem[]): Html {
  return html`<ul>${items.map((item) => html`<li><code>${item.subject}</code>${item.count && item.count > 1 ? ` (×${item.count})` : ''}${item.line ? html` <span class="muted">${i18n.t('console.theming.stripLine', { line: item.line })}</span>` : ''}: ${item.reason}</li>`)}</ul>`;
}

function contrastSection(i18n: Translator, report: BrandContrastReport): Html {
  const heading = html`<h2 id="contrast-heading">${i18n.t('console.theming.contrastHeading')}</h2>`;
  if (!report.valid) return html`<section aria-labelledby="contrast-heading">${heading}<p class="problem">${report.message}</p></section>`;
  const variantLabel = new Map<string, PlainKey>(THEME_VARIANTS.map((variant) => [variant.id, variant.label]));
  const surfaceLabel = new Map<string, PlainKey>(SURFACES.map((surface) => [surface.token, surface.label]));
  const verdict = (ok: boolean) => (ok ? i18n.t('console.theming.pass') : html`<strong class="problem">${i18n.t('console.theming.fail')}</strong>`);
  return html`<section aria-labelledby="contrast-heading">${heading}
<p>${i18n.t('console.theming.onBrand', { color: report.onBrand, ratio: report.onBrandRatio })}</p>
${report.warnings.length ? html`<ul class="warnings">${report.warnings.map((warning) => html`<li class="problem">${warning.message}</li>`)}</ul>` : html`<p>${i18n.t('console.theming.contrastOk')}</p>`}
<table><thead><tr><th scope="col">${i18n.t('console.theming.colTheme')}</th><th scope="col">${i18n.t('console.theming.colSurface')}</th><th scope="col">${i18n.t('console.theming.colRatio')}</th><th scope="col">${i18n.t('console.theming.colText')}</th><th scope="col">${i18n.t('console.theming.colLarge')}</th></tr></thead><tbody>
${report.pairs.map((pair) => html`<tr><td>${i18n.t(variantLabel.get(pair.variant) ?? 'console.theming.colTheme')}</td><td>${i18n.t(surfaceLabel.get(pair.surface) ?? 'console.theming.colSurface')} <code>${pair.surfaceColor}</code></td><td>${pair.ratio}:1</td><td>${verdict(pair.text)}</td><td>${verdict(pair.large)}</td></tr>`)}
</tbody></table></section>`;
}

function stripSection(i18n: Translator, report: StripReport): Html {
  const part = (field: BrandingField, items: readonly StripItem[]) => (items.length ? html`<h3>${i18n.t(`theming.field.${field}`)}</h3>${stripList(i18n, items)}` : '');
  return html`<section aria-labelledby="strip-heading"><h2 id="strip-heading">${i18n.t('console.theming.stripHeading')}</h2>
${report.clean ? html`<p>${i18n.t('console.theming.stripClean')}</p>` : html`${part('headerText', report.header)}${part('footerText', report.footer)}${part('customCss', report.css)}`}</section>`;
}

export function themingView(ctx: ViewContext, data: ThemingScreenData): string {
  const { i18n } = ctx;
  const { page, values, view } = data;
  const issue = (field: BrandingField) => data.issues.filter((item) => item.field === field).map((item) => html`<p class="problem" id="issue-${field}">${item.message}</p>`);
  const described = (field: BrandingField) => (data.issues.some((item) => item.field === field) ? trusted(` aria-describedby="issue-${field}" aria-invalid="true"`) : '');
  const pageLinks = data.pages.length > 1
    ? html`<nav aria-labelledby="pages-heading"><h2 id="pages-heading">${i18n.t('console.theming.pages')}</h2><ul class="items">${data.pages.map((item) => html`<li><a href="${consoleHref(`theming?page=${encodeURIComponent(item.id)}`)}"${item.id === page.id ? trusted(' aria-current="page"') : ''}>${item.name}</a></li>`)}</ul></nav>`
    : '';
  const templateLabel = i18n.t(TEMPLATE_LABELS[view.template]);
  const frameTitle = i18n.t('console.theming.previewFrame', { template: templateLabel, scheme: i18n.t(SCHEME_LABELS[view.scheme]), direction: i18n.t(DIRECTION_LABELS[view.direction]), width: String(view.width) });
  const form = html`<form method="post" action="${consoleHref('theming')}">${csrfField(ctx)}<input type="hidden" name="page" value="${page.id}">
<label for="brandColor">${i18n.t('theming.field.brandColor')}</label><input id="brandColor" name="brandColor" type="text" maxlength="64" value="${values.brandColor}"${described('brandColor')}>${issue('brandColor')}
<label for="logoUrl">${i18n.t('theming.field.logoUrl')}</label><input id="logoUrl" name="logoUrl" type="text" inputmode="url" maxlength="2048" value="${values.logoUrl}"${described('logoUrl')}>${issue('logoUrl')}
<label for="headerText">${i18n.t('theming.field.headerText')}</label><textarea id="headerText" name="headerText" maxlength="10000"${described('headerText')}>${values.headerText}</textarea>${issue('headerText')}
<label for="footerText">${i18n.t('theming.field.footerText')}</label><textarea id="footerText" name="footerText" maxlength="10000"${described('footerText')}>${values.footerText}</textarea>${issue('footerText')}
<label for="customCss">${i18n.t('theming.field.customCss')}</label><textarea id="customCss" name="customCss" class="code" maxlength="50000" spellcheck="false"${described('customCss')}>${values.customCss}</textarea>${issue('customCss')}
<fieldset><legend>${i18n.t('console.theming.view')}</legend>
${select('template', i18n.t('console.theming.template'), THEMING_TEMPLATES, view.template, (value) => i18n.t(TEMPLATE_LABELS[value as keyof typeof TEMPLATE_LABELS]))}
${select('scheme', i18n.t('console.theming.scheme'), PREVIEW_SCHEMES, view.scheme, (value) => i18n.t(SCHEME_LABELS[value as keyof typeof SCHEME_LABELS]))}
${select('direction', i18n.t('console.theming.direction'), ['ltr', 'rtl'], view.direction, (value) => i18n.t(DIRECTION_LABELS[value as 'ltr']))}
${select('width', i18n.t('console.theming.width'), PREVIEW_WIDTHS, view.width, (value) => i18n.t('console.theming.width.value', { width: value }))}
</fieldset>
<button type="submit" name="intent" value="preview" class="quiet">${i18n.t('console.preview')}</button><button type="submit" name="intent" value="publish">${i18n.t('console.publish')}</button>${data.hasDraft ? html`<button type="submit" name="intent" value="discard" class="quiet">${i18n.t('console.theming.discard')}</button>` : ''}</form>`;
  const undo = data.undo
    ? html`<form method="post" action="${consoleHref('theming/undo')}">${csrfField(ctx)}<input type="hidden" name="page" value="${page.id}">${(['template', 'scheme', 'direction', 'width'] as const).map((name) => html`<input type="hidden" name="${name}" value="${view[name]}">`)}<p class="muted">${i18n.t('console.theming.undoHint', { when: i18n.dateTime(data.undo.replacedAt), who: (data.undo.replacedBy ?? '').replace(/^operator:\S+ /, '') })}</p><button type="submit" class="quiet">${i18n.t('console.theming.undo')}</button></form>`
    : '';
  const body = html`<div class="theming">${pageLinks}<h2>${i18n.t('console.theming.forPage', { name: page.name })}</h2>
${data.notice ? html`<p role="status">${data.notice}</p>` : ''}${problemLine(data.problem)}
${data.hasDraft ? html`<p><strong>${i18n.t('console.theming.draftHeld')}</strong></p>` : ''}
<div class="theming-columns"><div class="theming-edit">${form}${undo}</div>
<section class="theming-preview" aria-labelledby="live-heading"><h2 id="live-heading">${i18n.t('console.theming.previewHeading')}</h2><p class="muted">${i18n.t('console.theming.previewNote')}</p>
<div class="frame-box"><iframe src="${data.frameSrc}" sandbox="" title="${frameTitle}" width="${view.width}" height="800" loading="eager" referrerpolicy="same-origin"></iframe></div></section></div>
${contrastSection(i18n, data.contrast)}${stripSection(i18n, data.strip)}</div>`;
  return layout(ctx, i18n.t('console.theming.nav'), body);
}
