/**
 * The day-by-day page behind one monitor's 90-day bar: the same monitor view as the status page
 * (one source for the days), for one linked monitor of the page; null when the page does not
 * list it (a monitor of another page is not found here).
 */
import type { StatusPage } from '../../contract/index.ts';
import type { Snapshot } from '../data/snapshot.ts';
import { monitorViews } from './monitor-view.ts';
import { pageContext, type PageContext, type PageOptions } from './page-context.ts';
import type { BrandingView, MonitorView, StaleNotice } from './types.ts';

export interface ComponentDaysView {
  branding: BrandingView;
  monitor: MonitorView;
  /** Newest first: the order a visitor looking back reads. */
  newestFirst: MonitorView['days'];
  stale: StaleNotice | null;
}

export function componentDaysView(
  snapshot: Snapshot,
  page: StatusPage,
  monitorId: string,
  options: PageOptions,
): ComponentDaysView | null {
  const context = pageContext(snapshot, page, options);
  const one: PageContext = { ...context, rows: context.rows.filter((row) => row.monitorId === monitorId) };
  const [monitor] = monitorViews(one, snapshot.histories);
  if (!monitor) return null;
  return { branding: context.branding, monitor, newestFirst: [...monitor.days].reverse(), stale: context.stale };
}
