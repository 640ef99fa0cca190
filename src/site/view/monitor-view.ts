import type { Translator } from '../i18n/translator.ts';
import { monitorStatusLabel } from '../lib/overall-status.ts';
import { incidentsForMonitor, incidentsPerDay } from '../lib/incidents.ts';
import { formatLatency, responseTimeChart } from '../lib/response-chart.ts';
import { dailyUptimeFromAggregates, formatUptime, windowUptime, type DailyUptime } from '../lib/uptime.ts';
import { historyDays, type MonitorHistory } from '../data/uptime-history.ts';
import { pageHrefs } from './hrefs.ts';
import type { PageContext } from './page-context.ts';
import { uptimeBarView } from './uptime-bar-view.ts';
import type { MonitorView, ResponseChartView, UptimeDayView } from './types.ts';

export const UPTIME_DAYS = 90;
const CHART = { width: 300, height: 48 } as const;

function dayView(day: DailyUptime, i18n: Translator): UptimeDayView {
  const label = i18n.day(day.date);
  const uptimeText = formatUptime(day.uptime, i18n);
  const uptime = day.uptime === null ? i18n.t('uptime.dayNoData') : i18n.t('uptime.dayUptime', { percent: uptimeText });
  const description = day.incidents === 0
    ? i18n.t('uptime.dayQuiet', { date: label, uptime })
    : i18n.t('uptime.day', { date: label, uptime, incidents: i18n.plural('uptime.dayIncidents', day.incidents) });
  return { date: day.date, label, level: day.level, uptimeText, incidents: day.incidents, description };
}

function chartView(history: MonitorHistory | undefined, now: Date, i18n: Translator): ResponseChartView | null {
  if (!history) return null;
  const chart = responseTimeChart(history.recent, { ...CHART, now });
  if (!chart) return null;
  return {
    path: chart.path,
    viewBox: chart.viewBox,
    minMs: Math.round(chart.min),
    maxMs: Math.round(chart.max),
    avgMs: Math.round(chart.avg),
    summary: i18n.t('chart.summary', { avg: formatLatency(chart.avg, i18n), min: formatLatency(chart.min, i18n), max: formatLatency(chart.max, i18n) }),
  };
}

/** Each linked monitor with its health, 90-day bar and (when the page shows them) response times. */
export function monitorViews(
  context: PageContext,
  histories: ReadonlyMap<string, MonitorHistory>,
): MonitorView[] {
  const showResponseTimes = context.page.showResponseTimes !== false;
  // Days run from midnight to midnight in the page's zone (the counters are kept per zone).
  const timeZone = context.i18n.timeZone;
  return context.rows.map((row) => {
    const history = histories.get(row.monitorId);
    const incidentsByDay = incidentsPerDay(incidentsForMonitor(context.incidents, row.monitorId), UPTIME_DAYS, context.now, timeZone);
    const days = dailyUptimeFromAggregates(new Map(Object.entries(historyDays(history, timeZone))), {
      days: UPTIME_DAYS,
      now: context.now,
      incidentsByDay,
      timeZone,
    });
    const latency = row.monitor?.lastLatency;
    const dayViews = days.map((day) => dayView(day, context.i18n));
    return {
      id: row.linkId,
      name: row.label,
      health: row.status,
      healthLabel: monitorStatusLabel(row.status, context.i18n),
      uptimeText: formatUptime(windowUptime(days), context.i18n),
      days: dayViews,
      bar: uptimeBarView(dayViews, row.label, context.i18n),
      daysHref: pageHrefs(context.basePath).component(row.monitorId),
      latencyText: showResponseTimes && typeof latency === 'number' ? formatLatency(latency, context.i18n) : null,
      chart: showResponseTimes ? chartView(history, context.now, context.i18n) : null,
    };
  });
}
