/**
 * Visitor-facing words of the one-element uptime bar and its day-by-day page, together so the
 * message catalogs (issue 19) can take them over.
 */
import type { DayLevel } from './types.ts';

const count = (n: number, one: string, many: string): string => (n === 1 ? `1 ${one}` : `${n} ${many}`);

export const uptimeBarText = {
  /** Words for a number of days at one level, e.g. "2 days with minor issues". */
  levelDays: {
    up: (n: number) => count(n, 'day up', 'days up'),
    minor: (n: number) => count(n, 'day with minor issues', 'days with minor issues'),
    major: (n: number) => count(n, 'day with a major outage', 'days with a major outage'),
    down: (n: number) => count(n, 'day down', 'days down'),
    none: (n: number) => count(n, 'day without data', 'days without data'),
  } satisfies Record<DayLevel, (n: number) => string>,
  /** The screen-reader summary of a bar: "Daily uptime of API over 90 days: 88 days up, 2 days down." */
  summary: (monitorName: string, days: number, parts: string[]) => `Daily uptime of ${monitorName} over ${days} days: ${parts.join(', ')}.`,
  /** The bar's link to the day-by-day list. */
  link: (monitorName: string) => `Daily uptime of ${monitorName}, day by day`,
  /** Title and heading of the day-by-day page. */
  pageTitle: (monitorName: string) => `Daily uptime of ${monitorName}`,
  listLabel: 'Days, newest first',
  notFound: 'This system is not on this status page.',
} as const;
