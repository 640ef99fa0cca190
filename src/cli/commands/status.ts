/**
 * `porchlight status [--page SLUG]`: each page's overall status and components exactly as the
 * page shows them. The CLI builds the same snapshot shape the site loads and runs the site's own
 * view code on it (pageContext + overallView), so there is one rule for "overall status", not a
 * copy here. Those modules are pure (src/site/view and src/site/lib import only the contract and
 * each other); the CLI sits above the site in the layering, so the import points downwards.
 */
import type { Snapshot } from '../../site/data/snapshot.ts';
import { slugBasePath } from '../../site/view/hrefs.ts';
import { pageContext } from '../../site/view/page-context.ts';
import { overallView } from '../../site/view/status-page-view.ts';
import { text, type Command } from '../command.ts';
import { allIncidents, allMaintenance, allMonitors, allPages, resolvePage } from '../lookups.ts';
import { table } from '../table.ts';

export const statusCommand: Command = {
  words: ['status'],
  summary: 'overall status and components of each page, as the page shows them',
  usage: '[--page SLUG]',
  optionHelp: ['--page SLUG           only this page (slug, id or name)'],
  options: { page: { type: 'string' } },
  examples: ['porchlight status', 'porchlight status --page acme --json'],
  positionals: [],
  async run({ client, now }, { values }) {
    const [pages, monitors, incidents, maintenance] = await Promise.all([allPages(client), allMonitors(client), allIncidents(client), allMaintenance(client)]);
    const snapshot: Snapshot = { organization: null, pages, monitors, incidents, maintenance, histories: new Map(), fetchedAt: now };
    const typed = text(values, 'page');
    const chosen = typed === undefined ? [...pages].sort((a, b) => a.slug.localeCompare(b.slug)) : [resolvePage(pages, typed)];
    const reports = chosen.map((page) => {
      const context = pageContext(snapshot, page, { basePath: slugBasePath('', page.slug), now, stale: false });
      const overall = overallView(context);
      return {
        page: { id: page.id, slug: page.slug, name: page.name, isPublic: page.isPublic !== false },
        overall: { level: overall.level, label: overall.label },
        components: context.rows.map((row) => ({ monitorId: row.monitorId, name: row.label, status: row.status, label: row.statusLabel })),
        activeIncidents: context.active.map((incident) => ({ id: incident.id, title: incident.title, severity: incident.severity, status: incident.status })),
        runningMaintenance: context.maintenance.running.map((window) => ({ id: window.id, title: window.title })),
      };
    });
    const human = reports
      .map((report) => {
        const title = `${report.page.name} (${report.page.slug})${report.page.isPublic ? '' : ' [not public]'}: ${report.overall.label}`;
        const rows = report.components.map((c) => [c.name, c.label]);
        const notes = [
          ...report.activeIncidents.map((i) => `incident ${i.id} [${i.severity}, ${i.status}] ${i.title}`),
          ...report.runningMaintenance.map((w) => `maintenance ${w.id} in progress: ${w.title}`),
        ];
        const body = rows.length === 0 ? '  no components' : table(['COMPONENT', 'STATUS'], rows).replace(/^/gm, '  ');
        return [title, body, ...notes.map((note) => `  ${note}`)].join('\n');
      })
      .join('\n\n');
    return { human: human || 'no status pages', json: typed === undefined ? reports : reports[0] };
  },
};
