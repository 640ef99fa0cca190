/**
 * The page's maintenance as an iCalendar (RFC 5545) that calendar apps subscribe to.
 *
 * - One VEVENT per window of the page that is upcoming, running or completed (STATUS:CONFIRMED),
 *   or cancelled (STATUS:CANCELLED, so subscribers see the event called off rather than vanish).
 *   Lapsed windows (scheduled, never started, end passed) and windows in a state or with times
 *   the site cannot read are left out, as on the HTML page (lib/maintenance.ts maintenancePhase).
 * - UID: a name-based UUID of the organization and the window id (stable-id.ts), so the same on
 *   every host the calendar is read from.
 * - Times: DTSTART/DTEND are the API's scheduledStart/scheduledEnd in UTC, to the second.
 * - Revision: the latest of updatedAt, createdAt, startedAt and completedAt. DTSTAMP and
 *   LAST-MODIFIED are that instant and SEQUENCE is the seconds from createdAt to it, rounded up, so
 *   every change the API records raises SEQUENCE (two changes within the same second may share
 *   one), and unchanged data gives the same bytes.
 *   Nothing here reads the clock except to tell a lapsed window.
 */
import type { MaintenanceWindow } from '../../contract/index.ts';
import { bySchedule, maintenanceMonitorIds, maintenancePhase, type MaintenancePhase } from '../lib/maintenance.ts';
import { parseInstant } from '../lib/time.ts';
import { affectedServices, type PageContext } from '../view/page-context.ts';
import type { OutputSource } from '../view/output-route.ts';
import { PAGE_OUTPUTS } from '../view/page-outputs.ts';
import { contentLine, icalText, icalUtc } from './ical-text.ts';
import { latestInstant } from './latest-instant.ts';
import { idScope, recordUuid } from './stable-id.ts';

export const ICALENDAR_CONTENT_TYPE = 'text/calendar; charset=utf-8';

/** How often subscribers are asked to poll (RFC 7986 REFRESH-INTERVAL and its older X- twin). */
export const CALENDAR_REFRESH = 'PT1H';

/** SEQUENCE is an INTEGER, a signed 32-bit number in most readers. */
const MAX_SEQUENCE = 2_147_483_647;

interface Schedule {
  start: number;
  end: number;
  cancelled: boolean;
  /** Says the window's state in words (catalog `maintenance.<phase>`): the same rule as the HTML page. */
  phase: Exclude<MaintenancePhase, 'lapsed' | 'unknown'>;
}

/** When and whether the window goes into the calendar; null: left out. */
function scheduleOf(window: MaintenanceWindow, now: Date): Schedule | null {
  const phase = maintenancePhase(window, now);
  if (phase === 'lapsed' || phase === 'unknown') return null;
  const start = parseInstant(window.scheduledStart);
  const end = parseInstant(window.scheduledEnd);
  // RFC 5545 wants DTEND after DTSTART; a window without a readable span cannot be placed.
  if (start === null || end === null || end <= start) return null;
  return { start, end, cancelled: phase === 'cancelled', phase };
}

/** The revision instant and SEQUENCE of a window, both from the API's own timestamps. */
export function windowRevision(window: Pick<MaintenanceWindow, 'createdAt' | 'updatedAt' | 'startedAt' | 'completedAt'>, fallback: number): {
  at: number;
  sequence: number;
} {
  const at = latestInstant([window.updatedAt, window.createdAt, window.startedAt, window.completedAt]) ?? fallback;
  const created = parseInstant(window.createdAt);
  const sequence = created === null ? 0 : Math.min(MAX_SEQUENCE, Math.max(0, Math.ceil((at - created) / 1000)));
  return { at, sequence };
}


function description(window: MaintenanceWindow, schedule: Schedule, context: Pick<PageContext, 'rows' | 'i18n'>, home: string): string {
  const { i18n } = context;
  const affected = affectedServices(context, maintenanceMonitorIds(window));
  const text = window.description?.trim();
  return [
    ...(text ? [text, ''] : []),
    ...(affected.length > 0 ? [i18n.t('calendar.affected', { names: i18n.list(affected) })] : []),
    i18n.t('calendar.status', { status: i18n.t(`maintenance.${schedule.phase}`) }),
    home,
  ].join('\n');
}

function vevent(window: MaintenanceWindow, schedule: Schedule, source: OutputSource, scope: string): string {
  const revision = windowRevision(window, schedule.start);
  const created = parseInstant(window.createdAt);
  const summary = schedule.cancelled ? source.context.i18n.t('calendar.cancelled', { title: window.title }) : window.title;
  return [
    contentLine('BEGIN', 'VEVENT'),
    contentLine('UID', recordUuid(scope, 'maintenance', window.id)),
    contentLine('DTSTAMP', icalUtc(revision.at)),
    ...(created === null ? [] : [contentLine('CREATED', icalUtc(created))]),
    contentLine('LAST-MODIFIED', icalUtc(revision.at)),
    contentLine('SEQUENCE', String(revision.sequence)),
    contentLine('DTSTART', icalUtc(schedule.start)),
    contentLine('DTEND', icalUtc(schedule.end)),
    contentLine('SUMMARY', icalText(summary)),
    contentLine('DESCRIPTION', icalText(description(window, schedule, source.context, source.urls.home))),
    contentLine('URL', source.urls.home),
    contentLine('STATUS', schedule.cancelled ? 'CANCELLED' : 'CONFIRMED'),
    // Maintenance of a service does not make the subscriber busy.
    contentLine('TRANSP', 'TRANSPARENT'),
    contentLine('END', 'VEVENT'),
  ].join('');
}

export function maintenanceCalendar(source: OutputSource): string {
  const { page, windows, now } = source.context;
  const scope = idScope(source.organization?.id, page.id);
  const { i18n } = source.context;
  const name = i18n.t('calendar.name', { name: page.name });
  const events = [...windows]
    .sort(bySchedule)
    .map((window) => {
      const schedule = scheduleOf(window, now);
      return schedule ? vevent(window, schedule, source, scope) : '';
    });
  return [
    contentLine('BEGIN', 'VCALENDAR'),
    contentLine('VERSION', '2.0'),
    contentLine('PRODID', '-//Porchlight//Status page maintenance//EN'),
    contentLine('CALSCALE', 'GREGORIAN'),
    contentLine('METHOD', 'PUBLISH'),
    contentLine('NAME', icalText(name)),
    contentLine('X-WR-CALNAME', icalText(name)),
    contentLine('X-WR-CALDESC', icalText(i18n.t('calendar.description', { name: page.name }))),
    contentLine('SOURCE;VALUE=URI', source.urls.at(PAGE_OUTPUTS.maintenanceCalendar)),
    contentLine('REFRESH-INTERVAL;VALUE=DURATION', CALENDAR_REFRESH),
    contentLine('X-PUBLISHED-TTL', CALENDAR_REFRESH),
    ...events,
    contentLine('END', 'VCALENDAR'),
  ].join('');
}
