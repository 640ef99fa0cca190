/** docs/site.md explains the Statuspage JSON with tables and an example: they must say what the code does. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MONITOR_STATUSES } from '../../../src/contract/index.ts';
import { monitorStatusLabel, overallStatusLabel, type MonitorHealth, type OverallLevel } from '../../../src/site/lib/overall-status.ts';
import { componentStatus, incidentImpact, statusIndicator } from '../../../src/site/lib/statuspage.ts';
import { summaryDocument } from '../../../src/site/outputs/statuspage.ts';
import { buildOutputSource } from '../../../src/site/view/output-route.ts';
import { monitor, page, snapshot } from '../view/fixtures.ts';

const docs = readFileSync(path.resolve(import.meta.dirname, '../../../docs/site.md'), 'utf8');
const section = docs.slice(docs.indexOf('## The same status as Statuspage JSON'), docs.indexOf('## Safety of owner content'));

/** The body rows of the table whose header row starts with `header`, as trimmed cells. */
function table(header: string): string[][] {
  const lines = section.split('\n');
  const start = lines.findIndex((line) => line.startsWith(`| ${header}`));
  expect(start, header).toBeGreaterThanOrEqual(0);
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(line.split('|').slice(1, -1).map((cell) => cell.trim()));
  }
  return rows;
}

const code = (cell: string) => /^`([a-z_]+)`/.exec(cell)?.[1] ?? cell;

describe('docs/site.md on the Statuspage JSON', () => {
  it('maps every monitor health to the component status and words the code uses', () => {
    const rows = table('Monitor health');
    expect(rows.map(([health]) => code(health!)).sort()).toEqual([...MONITOR_STATUSES, 'unknown'].sort());
    for (const [health, status, description] of rows) {
      const value = code(health!) as MonitorHealth;
      expect([code(status!), description]).toEqual([componentStatus(value), monitorStatusLabel(value)]);
    }
  });

  it('maps every overall level to the indicator and the banner label the code uses', () => {
    const rows = table('Overall status');
    expect(rows).toHaveLength(5);
    for (const [level, indicator, description] of rows) {
      const value = code(level!) as OverallLevel;
      expect(code(indicator!)).toBe(statusIndicator(value));
      expect(description!.startsWith(overallStatusLabel(value))).toBe(true);
    }
  });

  it('maps severities as the code does', () => {
    for (const [severity, impact] of table('Incident `severity`')) expect(code(impact!)).toBe(incidentImpact(code(severity!)));
  });

  it('shows an example the builders really produce', () => {
    const example = /```json\n([\s\S]*?)\n```/.exec(section)?.[1];
    const data = snapshot({
      pages: [
        page({
          id: 'page_acme',
          name: 'Acme Cloud Status',
          monitors: [
            { id: 'l1', monitorId: 'mon_web', displayName: 'Website', sortOrder: 1 },
            { id: 'l2', monitorId: 'mon_api', displayName: 'API', sortOrder: 2 },
          ],
        }),
      ],
      monitors: [
        monitor('mon_web', 'up', { createdAt: '2026-08-26T08:00:00Z', updatedAt: '2026-08-26T08:00:00Z' }),
        monitor('mon_api', 'degraded', { createdAt: '2026-08-26T08:00:00Z', updatedAt: '2026-11-02T10:30:00Z' }),
      ],
      incidents: [
        {
          id: 'inc_42',
          title: 'Elevated API latency',
          status: 'monitoring',
          severity: 'minor',
          startedAt: '2026-11-22T13:40:00Z',
          resolvedAt: null,
          createdAt: '2026-11-22T13:40:00Z',
          updatedAt: '2026-11-22T14:05:00Z',
          updates: [
            { id: 'upd_1', status: 'investigating', message: 'We are looking into slow API responses.', createdAt: '2026-11-22T13:40:00Z' },
            { id: 'upd_2', status: 'monitoring', message: 'A fix is out; we are watching response times.', createdAt: '2026-11-22T14:05:00Z' },
          ],
          monitors: [{ monitor: { id: 'mon_api', name: 'api' } }],
        },
      ],
      maintenance: [
        {
          id: 'mnt_7',
          title: 'Database maintenance',
          description: 'Writes pause for up to 10 minutes.',
          status: 'scheduled',
          scheduledStart: '2026-11-26T02:00:00Z',
          scheduledEnd: '2026-11-26T03:00:00Z',
          createdAt: '2026-11-20T09:00:00Z',
          updatedAt: '2026-11-20T09:00:00Z',
          monitors: [{ monitor: { id: 'mon_web', name: 'web' } }],
        },
      ],
      fetchedAt: new Date('2026-11-22T14:06:30Z'),
    });
    const built = summaryDocument(buildOutputSource(data, data.pages[0]!, { basePath: '/acme', now: new Date('2026-11-22T14:07:00Z'), stale: false, origin: 'https://status.example.com' }));
    // Same values and the same key order.
    expect(JSON.stringify(JSON.parse(example ?? 'null'))).toBe(JSON.stringify(built));
  });
});
