import type { MaintenanceWindow } from '../../contract/index.ts';
import { maintenanceMonitorIds } from '../lib/maintenance.ts';
import { timeView } from './time-view.ts';
import type { MaintenanceView } from './types.ts';

/** A window as the page shows it; affected services named as the page labels them. */
export function maintenanceView(
  window: MaintenanceWindow,
  state: MaintenanceView['state'],
  context: { labels: ReadonlyMap<string, string>; now: Date },
): MaintenanceView {
  const affected = [...maintenanceMonitorIds(window)]
    .map((id) => context.labels.get(id))
    .filter((label): label is string => label !== undefined);
  const description = window.description?.trim();
  return {
    id: window.id,
    title: window.title,
    description: description ? description : null,
    state,
    start: timeView(window.scheduledStart),
    end: timeView(window.scheduledEnd),
    affected,
  };
}
