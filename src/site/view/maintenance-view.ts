import type { MaintenanceWindow } from '../../contract/index.ts';
import { maintenanceMonitorIds } from '../lib/maintenance.ts';
import { affectedServices, type PageContext } from './page-context.ts';
import { timeView } from './time-view.ts';
import type { MaintenanceView } from './types.ts';

/** A window as the page shows it; affected services named as the page labels them. */
export function maintenanceView(
  window: MaintenanceWindow,
  state: MaintenanceView['state'],
  context: Pick<PageContext, 'rows' | 'i18n'>,
): MaintenanceView {
  const affected = affectedServices(context, maintenanceMonitorIds(window));
  const description = window.description?.trim();
  return {
    id: window.id,
    title: window.title,
    description: description ? description : null,
    state,
    start: timeView(window.scheduledStart, context.i18n),
    end: timeView(window.scheduledEnd, context.i18n),
    affected,
  };
}
