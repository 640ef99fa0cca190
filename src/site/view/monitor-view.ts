import { formatDate } from '../lib/format-date.ts';
import { incidentsForMonitor, incidentsPerDay } from '../lib/incidents.ts';
import { formatLatency, responseTimeChart } from '../lib/response-chart.ts';
import { dailyUptimeFromAggregates, formatUptime, windowUptime, type DailyUptime } from '../lib/uptime.ts';
import type { MonitorHistory } from '../data/uptime-history.ts';
import { pageHrefs } from './hrefs.ts';
import type { PageContext } from './page-context.ts';
import { uptimeBarView } from './uptime-bar-view.ts';
import type { MonitorView, ResponseChartView, UptimeDayView } from './types.ts';

export const UPTIME_DAYS = 90;
const CHART = { width: 300, height: 48 } as const;

function dayView(day: DailyUptime): UptimeDayView {
  const label = formatDate(`${day.date}T00:00:00Z`);
  const uptimeText = formatUptime(day.uptime);
  const incidents = day.incidents === 0 ? 'no incidents' : day.incidents === 1 ? '1 incident' : `${day.incidents} incidents`;
  const uptime = day.uptime === null ? 'no data' : `${uptimeText} uptime`;
  return { date: day.date, label, level: day.level, uptimeText, incidents: day.incidents, description: `${label}: ${uptime}, ${incidents}` };
}

function chartView(history: MonitorHistory | undefined, now: Date): ResponseChartView | null {
  if (!history) return null;
  const chart = responseTimeChart(history.recent, { ...CHART, now });
  if (!chart) return null;
  return {
    path: chart.path,
    viewBox: chart.viewBox,
    minMs: Math.round(chart.min),
    maxMs: Math.round(chart.max),
    avgMs: Math.round(chart.avg),
    summary: `Response time over the last 24 hours: average ${formatLatency(chart.avg)}, fastest ${formatLatency(chart.min)}, slowest ${formatLatency(chart.max)}`,
  };
}

/** Each linked monitor with its health, 90-day bar and (when the page shows them) response times. */
export function monitorViews(
  context: PageContext,
  histories: ReadonlyMap<string, MonitorHistory>,
): MonitorView[] {
  const showResponseTimes = context.page.showResponseTimes !== false;
  return context.rows.map((row) => {
    const history = histories.get(row.monitorId);
    const incidentsByDay = incidentsPerDay(incidentsForMonitor(context.incidents, row.monitorId), UPTIME_DAYS, context.now);
    const days = dailyUptimeFromAggregates(new Map(Object.entries(history?.days ?? {})), {
      days: UPTIME_DAYS,
      now: context.now,
      incidentsByDay,
    });
    const latency = row.monitor?.lastLatency;
    const dayViews = days.map(dayView);
    return {
      id: row.linkId,
      name: row.label,
      health: row.status,
      healthLabel: row.statusLabel,
      uptimeText: formatUptime(windowUptime(days)),
      days: dayViews,
      bar: uptimeBarView(dayViews, row.label),
      daysHref: pageHrefs(context.basePath).component(row.monitorId),
      latencyText: showResponseTimes && typeof latency === 'number' ? formatLatency(latency) : null,
      chart: showResponseTimes ? chartView(history, context.now) : null,
    };
  });
}
