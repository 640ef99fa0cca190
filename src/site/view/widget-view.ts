/**
 * The embeddable widget: the page's overall status (the banner's words and shape), the titles
 * of its active incidents, and the way to the full page. Links are relative: they resolve
 * against the widget's own address, the status site, whatever page embeds it.
 */
import type { PageContext } from './page-context.ts';
import { incidentView } from './incident-view.ts';
import { overallView } from './status-page-view.ts';
import type { BrandingView, OverallView, StaleNotice } from './types.ts';

/** Active incidents listed by title; the rest are counted, the full page lists them. */
export const WIDGET_INCIDENTS = 3;

export interface WidgetView {
  branding: BrandingView;
  /** The document title, e.g. "Acme Status: Partial outage". */
  title: string;
  overall: OverallView;
  /** Most recently started first. */
  incidents: { id: string; title: string; href: string }[];
  /** Active incidents beyond those listed. */
  moreIncidents: number;
  /** The page's home, opened in the top window. */
  homeHref: string;
  /** Set while the API is unreachable: the status is as of then. */
  stale: StaleNotice | null;
  /** How often the widget reloads itself while visible (enhance.js). */
  refreshSeconds: number;
}

export const WIDGET_REFRESH_SECONDS = 60;

export function widgetView(context: PageContext): WidgetView {
  const overall = overallView(context);
  const incidents = context.active.slice(0, WIDGET_INCIDENTS).map((incident) => {
    const view = incidentView(incident, context);
    return { id: view.id, title: view.title, href: view.href };
  });
  return {
    branding: context.branding,
    title: context.i18n.t('page.title', { name: context.branding.pageName, status: overall.label }),
    overall,
    incidents,
    moreIncidents: context.active.length - incidents.length,
    homeHref: context.branding.homeHref,
    stale: context.stale,
    refreshSeconds: WIDGET_REFRESH_SECONDS,
  };
}
