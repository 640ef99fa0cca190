/** `porchlight incident open|update|resolve|list|show`. */
import type { Incident } from '../../api/index.ts';
import { INCIDENT_SEVERITIES, INCIDENT_STATUSES } from '../../contract/index.ts';
import { isIncidentActive } from '../../site/lib/incidents.ts';
import { UsageError } from '../cli-error.ts';
import { flag, oneOf, required, text, texts, type Command, type Output } from '../command.ts';
import { allIncidents, resolveMonitors } from '../lookups.ts';
import { utc } from '../parse-time.ts';
import { en } from '../strings.ts';
import { fields, table } from '../table.ts';
import { loadTemplate, parseVars, templatesDir } from '../templates.ts';

/** The documented, stable --json shape of an incident. */
export function incidentJson(incident: Incident) {
  return {
    id: incident.id,
    title: incident.title,
    status: incident.status,
    severity: incident.severity,
    startedAt: utc(incident.startedAt),
    resolvedAt: incident.resolvedAt ? utc(incident.resolvedAt) : null,
    monitors: incident.monitors.map(({ monitor }) => ({ id: monitor.id, name: monitor.name })),
    updates: incident.updates.map((update) => ({ id: update.id, status: update.status, message: update.message, createdAt: utc(update.createdAt) })),
  };
}

function incidentText(incident: Incident): string {
  const head = fields([
    ['id', incident.id],
    ['title', incident.title],
    ['status', incident.status],
    ['severity', incident.severity],
    ['started', utc(incident.startedAt)],
    ['resolved', incident.resolvedAt ? utc(incident.resolvedAt) : '-'],
    ['monitors', incident.monitors.map(({ monitor }) => monitor.name).join(', ') || '-'],
  ]);
  const updates = [...incident.updates].sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  const timeline = updates.length === 0 ? '' : `\n\ntimeline:\n${table(['time', 'status', 'message'], updates.map((u) => [utc(u.createdAt), u.status, u.message.replace(/\s+/g, ' ')])).replace(/^/gm, '  ')}`;
  return head + timeline;
}

const one = (incident: Incident, verb: string): Output => ({ human: `${verb} ${incident.id}\n\n${incidentText(incident)}`, json: incidentJson(incident) });

export const incidentCommands: Command[] = [
  {
    words: ['incident', 'open'],
    audit: true,
    summary: 'open an incident (it shows on every page that lists its monitors)',
    usage: '--title TEXT --severity minor|major|critical [--status STATUS] [--monitor ID|NAME]... [--message TEXT] [--template NAME --var K=V...]',
    optionHelp: [
      '--title TEXT          headline on the page',
      '--severity LEVEL      minor, major or critical',
      `--status STATUS       ${INCIDENT_STATUSES.filter((s) => s !== 'resolved').join(', ')} (default investigating)`,
      '--monitor ID|NAME     an affected monitor (repeat for more)',
      '--message TEXT        first timeline entry',
      '--template NAME       fill the fields from TEMPLATES_DIR/NAME.md (flags win)',
      '--var NAME=VALUE      a {NAME} placeholder of the template (repeat for more)',
    ],
    options: {
      title: { type: 'string' },
      severity: { type: 'string' },
      status: { type: 'string' },
      monitor: { type: 'string', multiple: true },
      message: { type: 'string' },
      template: { type: 'string' },
      var: { type: 'string', multiple: true },
    },
    examples: [
      'porchlight incident open --title "Database slow" --severity minor --monitor "Primary database"',
      'porchlight incident open --template db-outage --var region=eu',
    ],
    positionals: [],
    async run({ client, env }, { values }) {
      const templateName = text(values, 'template');
      const vars = parseVars(texts(values, 'var'));
      if (!templateName && vars.size > 0) throw new UsageError('--var needs --template');
      const template = templateName ? await loadTemplate(templatesDir(env), templateName, vars) : { monitors: [] as string[] };
      const title = text(values, 'title') ?? template.title;
      if (!title?.trim()) throw new UsageError('--title is required (or a template with a title)');
      const severityText = text(values, 'severity') ?? template.severity;
      if (!severityText) throw new UsageError('--severity is required: minor, major or critical');
      const severity = oneOf(severityText, INCIDENT_SEVERITIES, 'severity');
      const status = oneOf(text(values, 'status') ?? template.status ?? 'investigating', INCIDENT_STATUSES, 'status');
      const flagged = texts(values, 'monitor');
      const monitors = await resolveMonitors(client, flagged.length > 0 ? flagged : template.monitors);
      const incident = await client.incidents.create({
        title: title.trim(),
        severity,
        status,
        message: text(values, 'message') ?? template.message ?? en.defaultIncidentMessage,
        monitorIds: monitors.map((monitor) => monitor.id),
      });
      return one(incident, 'opened incident');
    },
  },
  {
    words: ['incident', 'update'],
    audit: true,
    auditBefore: async (client, id) => incidentJson(await client.incidents.get(id)),
    summary: 'post a timeline entry (new status and message)',
    usage: 'ID --status STATUS --message TEXT',
    optionHelp: [`--status STATUS       ${INCIDENT_STATUSES.join(', ')}`, '--message TEXT        what changed'],
    options: { status: { type: 'string' }, message: { type: 'string' } },
    examples: ['porchlight incident update inc_123 --status identified --message "A failed disk; replacing it"'],
    positionals: ['ID'],
    async run({ client }, { values, positionals: [id = ''] }) {
      const status = oneOf(required(values, 'status'), INCIDENT_STATUSES, 'status');
      const incident = await client.incidents.update(id, { status, message: required(values, 'message') });
      return one(incident, 'updated incident');
    },
  },
  {
    words: ['incident', 'resolve'],
    audit: true,
    auditBefore: async (client, id) => incidentJson(await client.incidents.get(id)),
    summary: 'resolve an incident',
    usage: 'ID [--message TEXT]',
    optionHelp: [`--message TEXT        last timeline entry (default "${en.defaultResolvedMessage}")`],
    options: { message: { type: 'string' } },
    examples: ['porchlight incident resolve inc_123 --message "Fixed; all requests succeed again"'],
    positionals: ['ID'],
    async run({ client }, { values, positionals: [id = ''] }) {
      const incident = await client.incidents.update(id, { status: 'resolved', message: text(values, 'message') ?? en.defaultResolvedMessage });
      return one(incident, 'resolved incident');
    },
  },
  {
    words: ['incident', 'list'],
    summary: 'list incidents, newest first',
    usage: '[--active]',
    optionHelp: ['--active              only incidents not resolved'],
    options: { active: { type: 'boolean' } },
    examples: ['porchlight incident list --active', 'porchlight incident list --json | jq ".[].id"'],
    positionals: [],
    async run({ client }, { values }) {
      const all = await allIncidents(client);
      const chosen = (flag(values, 'active') ? all.filter(isIncidentActive) : all).sort(
        (a, b) => b.startedAt.localeCompare(a.startedAt) || a.id.localeCompare(b.id),
      );
      const rows = chosen.map((i) => [i.id, i.status, i.severity, utc(i.startedAt), i.title]);
      return {
        human: rows.length === 0 ? 'no incidents' : table(['ID', 'STATUS', 'SEVERITY', 'STARTED', 'TITLE'], rows),
        json: chosen.map(incidentJson),
      };
    },
  },
  {
    words: ['incident', 'show'],
    summary: 'one incident with its timeline',
    usage: 'ID',
    optionHelp: [],
    options: {},
    examples: ['porchlight incident show inc_123'],
    positionals: ['ID'],
    async run({ client }, { positionals: [id = ''] }) {
      const incident = await client.incidents.get(id);
      return { human: incidentText(incident), json: incidentJson(incident) };
    },
  },
];
