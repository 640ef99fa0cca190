/** `porchlight maintenance schedule|start|complete|cancel|list`. */
import type { MaintenanceWindow } from '../../api/index.ts';
import { bySchedule, maintenancePhase } from '../../site/lib/maintenance.ts';
import { UsageError } from '../cli-error.ts';
import { flag, required, text, texts, type Command, type Output } from '../command.ts';
import { allMaintenance, resolveMonitors } from '../lookups.ts';
import { parseDuration, parseTime, utc } from '../parse-time.ts';
import { fields, table } from '../table.ts';

/** The documented, stable --json shape of a maintenance window. `phase` is as the page sees it now. */
export function maintenanceJson(window: MaintenanceWindow, now: Date) {
  return {
    id: window.id,
    title: window.title,
    description: window.description ?? null,
    status: window.status,
    phase: maintenancePhase(window, now),
    scheduledStart: utc(window.scheduledStart),
    scheduledEnd: utc(window.scheduledEnd),
    startedAt: window.startedAt ? utc(window.startedAt) : null,
    completedAt: window.completedAt ? utc(window.completedAt) : null,
    monitors: window.monitors.map(({ monitor }) => ({ id: monitor.id, name: monitor.name })),
  };
}

function windowText(window: MaintenanceWindow, now: Date): string {
  return fields([
    ['id', window.id],
    ['title', window.title],
    ['status', `${window.status} (${maintenancePhase(window, now)})`],
    ['start', utc(window.scheduledStart)],
    ['end', utc(window.scheduledEnd)],
    ['monitors', window.monitors.map(({ monitor }) => monitor.name).join(', ') || '-'],
    ['description', window.description?.replace(/\s+/g, ' ') ?? '-'],
  ]);
}

const one = (window: MaintenanceWindow, verb: string, now: Date): Output => ({
  human: `${verb} ${window.id}\n\n${windowText(window, now)}`,
  json: maintenanceJson(window, now),
});

const transition = (action: 'start' | 'complete' | 'cancel', summary: string, verb: string): Command => ({
  words: ['maintenance', action],
  audit: true,
  auditBefore: async (client, id, now) => maintenanceJson(await client.maintenance.get(id), now),
  summary,
  usage: 'ID',
  optionHelp: [],
  options: {},
  examples: [`porchlight maintenance ${action} mnt_123`],
  positionals: ['ID'],
  async run({ client, now }, { positionals: [id = ''] }) {
    return one(await client.maintenance[action](id), verb, now);
  },
});

export const maintenanceCommands: Command[] = [
  {
    words: ['maintenance', 'schedule'],
    audit: true,
    summary: 'schedule a maintenance window',
    usage: '--title TEXT --start TIME (--end TIME | --duration LENGTH) [--monitor ID|NAME]... [--description TEXT]',
    optionHelp: [
      '--title TEXT          headline on the page',
      '--start TIME          ISO 8601, +30m, in 2h, tomorrow 02:00 UTC',
      '--end TIME            same forms as --start',
      '--duration LENGTH     instead of --end: 2h, 90m, 1h30m',
      '--monitor ID|NAME     an affected monitor (repeat for more)',
      '--description TEXT    what happens and what visitors notice',
    ],
    options: {
      title: { type: 'string' },
      start: { type: 'string' },
      end: { type: 'string' },
      duration: { type: 'string' },
      monitor: { type: 'string', multiple: true },
      description: { type: 'string' },
    },
    examples: [
      'porchlight maintenance schedule --title "Database upgrade" --start "tomorrow 02:00 UTC" --duration 2h --monitor "Primary database"',
      'porchlight maintenance schedule --title "Network work" --start 2026-12-01T22:00Z --end 2026-12-02T01:00Z',
    ],
    positionals: [],
    async run({ client, now }, { values }) {
      const title = required(values, 'title');
      const start = parseTime(required(values, 'start'), '--start', now);
      const endText = text(values, 'end');
      const durationText = text(values, 'duration');
      if ((endText === undefined) === (durationText === undefined)) throw new UsageError('give exactly one of --end and --duration');
      const end = endText !== undefined ? parseTime(endText, '--end', now) : new Date(start.getTime() + parseDuration(durationText ?? '', '--duration'));
      if (end <= start) throw new UsageError(`--end (${utc(end)}) must be after --start (${utc(start)})`);
      const monitors = await resolveMonitors(client, texts(values, 'monitor'));
      const description = text(values, 'description');
      const window = await client.maintenance.create({
        title,
        scheduledStart: utc(start),
        scheduledEnd: utc(end),
        monitorIds: monitors.map((monitor) => monitor.id),
        ...(description === undefined ? {} : { description }),
      });
      return one(window, 'scheduled maintenance', now);
    },
  },
  transition('start', 'start a scheduled window now', 'started maintenance'),
  transition('complete', 'complete a window in progress', 'completed maintenance'),
  transition('cancel', 'cancel a scheduled window', 'cancelled maintenance'),
  {
    words: ['maintenance', 'list'],
    summary: 'list maintenance windows by start time',
    usage: '[--upcoming | --active]',
    optionHelp: ['--upcoming            only windows that have not started', '--active              only windows running now'],
    options: { upcoming: { type: 'boolean' }, active: { type: 'boolean' } },
    examples: ['porchlight maintenance list --upcoming'],
    positionals: [],
    async run({ client, now }, { values }) {
      if (flag(values, 'upcoming') && flag(values, 'active')) throw new UsageError('give at most one of --upcoming and --active');
      const wanted = flag(values, 'upcoming') ? 'upcoming' : flag(values, 'active') ? 'running' : null;
      const windows = (await allMaintenance(client)).filter((window) => wanted === null || maintenancePhase(window, now) === wanted).sort(bySchedule);
      const rows = windows.map((w) => [w.id, maintenancePhase(w, now), utc(w.scheduledStart), utc(w.scheduledEnd), w.title]);
      return {
        human: rows.length === 0 ? 'no maintenance windows' : table(['ID', 'PHASE', 'START', 'END', 'TITLE'], rows),
        json: windows.map((window) => maintenanceJson(window, now)),
      };
    },
  },
];
