/**
 * The site's stylesheet, written into each page's <head> instead of linked: a linked stylesheet is
 * a second render-blocking request, one more round trip before the status can be drawn (issue 17
 * item 8). Each page carries only what its template uses and the tokens of the site's one theme
 * (issue 34: 21.7 KB of CSS for every template was parsed and matched before the first frame):
 * a sheet per template and theme, composed here from the files of styles/ and themes/, each in
 * its cascade layer (declared once, below: later layers win). Owners' customCss comes unlayered
 * after it, so it overrides every layer without any specificity fight. Allowed by its hash, in the
 * CSP header (middleware: the hashes of the site theme's sheets) and the page's <meta>
 * (DocumentHead: its own).
 */
import { sha256Source } from '../security/csp.ts';
import type { ThemeName } from '../config.ts';
import reset from './reset.css?inline';
import { THEME_TEXTS } from './theme-sources.ts';
import base from './base.css?inline';
import layout from './layout.css?inline';
import tones from './components/tones.css?inline';
import badge from './components/badge.css?inline';
import banner from './components/banner.css?inline';
import incident from './components/incident.css?inline';
import timeline from './components/timeline.css?inline';
import maintenance from './components/maintenance.css?inline';
import monitor from './components/monitor.css?inline';
import uptime from './components/uptime.css?inline';
import chart from './components/chart.css?inline';
import history from './components/history.css?inline';
import pageIndex from './components/page-index.css?inline';
import integrate from './components/integrate.css?inline';
import subscribe from './components/subscribe.css?inline';
import widget from './components/widget.css?inline';
import languages from './components/languages.css?inline';
import utilities from './utilities.css?inline';

/** Which pages a sheet is for (the layout's `sheet` prop). */
export type SheetName = 'status-page' | 'page' | 'widget';

/** Component files in cascade order (a later one wins a tie). */
const COMPONENTS = { tones, badge, banner, incident, timeline, maintenance, monitor, uptime, chart, history, pageIndex, integrate, subscribe, widget, languages } as const;
type Component = keyof typeof COMPONENTS;

/** The components each template's pages use; everything else is left out of their <head>. */
const TEMPLATE_COMPONENTS: Readonly<Record<SheetName, readonly Component[]>> = {
  // The status page: no history month, page index or widget.
  'status-page': ['tones', 'badge', 'banner', 'incident', 'timeline', 'maintenance', 'monitor', 'uptime', 'chart', 'integrate', 'subscribe', 'languages'],
  // Incident, history and component pages, the index, error pages: all but the widget's.
  page: ['tones', 'badge', 'banner', 'incident', 'timeline', 'maintenance', 'monitor', 'uptime', 'chart', 'history', 'pageIndex', 'integrate', 'subscribe', 'languages'],
  widget: ['tones', 'badge', 'banner', 'widget'],
};

/** default.css holds the tokens every theme shares; the other two only override colours. */
const THEME_TOKENS: Readonly<Record<ThemeName, string>> = {
  default: THEME_TEXTS.default,
  dark: THEME_TEXTS.default + THEME_TEXTS.dark,
  'high-contrast': THEME_TEXTS.default + THEME_TEXTS.highContrast,
};

const layer = (name: string, css: string): string => `@layer ${name}{${css}}`;

export function composeSheet(sheet: SheetName, theme: ThemeName): string {
  const wanted = new Set<Component>(TEMPLATE_COMPONENTS[sheet]);
  const components = (Object.keys(COMPONENTS) as Component[]).filter((name) => wanted.has(name)).map((name) => COMPONENTS[name]).join('');
  return [
    '@layer reset,tokens,base,layout,components,utilities;',
    layer('reset', reset),
    layer('tokens', THEME_TOKENS[theme]),
    layer('base', base),
    layer('layout', layout),
    layer('components', components),
    layer('utilities', utilities),
  ].join('');
}

export interface SiteStylesheet {
  readonly text: string;
  readonly hash: string;
}

const sheets = new Map<string, SiteStylesheet>();
for (const sheet of Object.keys(TEMPLATE_COMPONENTS) as SheetName[]) {
  for (const theme of Object.keys(THEME_TOKENS) as ThemeName[]) {
    const text = composeSheet(sheet, theme);
    sheets.set(`${sheet}|${theme}`, { text, hash: sha256Source(text) });
  }
}

export function siteStylesheet(sheet: SheetName, theme: ThemeName): SiteStylesheet {
  return sheets.get(`${sheet}|${theme}`)!;
}

/** The hashes of every template's sheet in one theme, for the CSP header (a page's <meta> names only its own). */
export function siteStylesheetHashes(theme: ThemeName): string[] {
  return (Object.keys(TEMPLATE_COMPONENTS) as SheetName[]).map((sheet) => siteStylesheet(sheet, theme).hash);
}
