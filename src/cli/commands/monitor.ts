/** `porchlight monitor list|pause|resume|run`. */
import type { Check, Monitor } from '../../api/index.ts';
import { monitorHealth } from '../../site/lib/overall-status.ts';
import type { Command } from '../command.ts';
import { allMonitors, resolveMonitor } from '../lookups.ts';
import { utc } from '../parse-time.ts';
import { fields, table } from '../table.ts';

function target(monitor: Monitor): string {
  if (monitor.url) return monitor.url;
  if (monitor.host) return monitor.port ? `${monitor.host}:${monitor.port}` : monitor.host;
  return '';
}

/** The documented, stable --json shape of a monitor. `status` is its health as a page shows it. */
export function monitorJson(monitor: Monitor) {
  return {
    id: monitor.id,
    name: monitor.name,
    type: monitor.type,
    target: target(monitor),
    active: monitor.active !== false,
    status: monitorHealth(monitor, false),
    lastCheckedAt: monitor.lastCheckedAt ? utc(monitor.lastCheckedAt) : null,
    lastLatencyMs: monitor.lastLatency ?? null,
  };
}

export function checkJson(check: Check) {
  return {
    id: check.id,
    monitorId: check.monitorId,
    status: check.status,
    latencyMs: check.latency ?? null,
    statusCode: check.statusCode ?? null,
    region: check.region ?? null,
    checkedAt: utc(check.checkedAt),
    error: check.error ?? null,
  };
}

const monitorFields = (monitor: Monitor) =>
  fields([
    ['id', monitor.id],
    ['name', monitor.name],
    ['type', monitor.type],
    ['target', target(monitor) || '-'],
    ['status', monitorHealth(monitor, false)],
  ]);

const toggle = (words: 'pause' | 'resume'): Command => ({
  words: ['monitor', words],
  audit: true,
  auditBefore: async (client, name) => monitorJson(await resolveMonitor(client, name)),
  summary: words === 'pause' ? 'stop checking a monitor (its page shows it paused)' : 'start checking a paused monitor again',
  usage: 'ID|NAME',
  optionHelp: [],
  options: {},
  examples: [`porchlight monitor ${words} "Build runners"`],
  positionals: ['ID|NAME'],
  async run({ client }, { positionals: [name = ''] }) {
    const monitor = await resolveMonitor(client, name);
    const updated = await client.monitors.update(monitor.id, { active: words === 'resume' });
    return { human: `${words === 'pause' ? 'paused' : 'resumed'} monitor ${updated.id}\n\n${monitorFields(updated)}`, json: monitorJson(updated) };
  },
});

export const monitorCommands: Command[] = [
  {
    words: ['monitor', 'list'],
    summary: 'list monitors with their current status',
    usage: '',
    optionHelp: [],
    options: {},
    examples: ['porchlight monitor list', 'porchlight monitor list --json'],
    positionals: [],
    async run({ client }) {
      const monitors = (await allMonitors(client)).sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
      const rows = monitors.map((m) => [m.id, monitorHealth(m, false), m.type, m.name, target(m)]);
      return {
        human: rows.length === 0 ? 'no monitors' : table(['ID', 'STATUS', 'TYPE', 'NAME', 'TARGET'], rows),
        json: monitors.map(monitorJson),
      };
    },
  },
  toggle('pause'),
  toggle('resume'),
  {
    words: ['monitor', 'run'],
    summary: 'run one check now and show its result',
    usage: 'ID|NAME',
    optionHelp: [],
    options: {},
    examples: ['porchlight monitor run "Public API"'],
    positionals: ['ID|NAME'],
    async run({ client }, { positionals: [name = ''] }) {
      const monitor = await resolveMonitor(client, name);
      const check = await client.monitors.run(monitor.id);
      if (!check) return { human: `check of ${monitor.name} (${monitor.id}) started; its result will appear in \`porchlight monitor list\``, json: null };
      const result = checkJson(check);
      return {
        human: fields([
          ['monitor', `${monitor.name} (${monitor.id})`],
          ['result', result.status],
          ['latency', result.latencyMs === null ? '-' : `${result.latencyMs} ms`],
          ['status code', result.statusCode === null ? '-' : String(result.statusCode)],
          ['region', result.region ?? '-'],
          ['checked', result.checkedAt],
          ['error', result.error ?? '-'],
        ]),
        json: result,
      };
    },
  },
];
