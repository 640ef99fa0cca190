/** The API-use figures (bench/lib/api-use.ts) as Markdown, between their own markers in docs/benchmarks.md. */
import type { ApiUseResult, Situation } from './api-use.ts';

const START = '<!-- api-use:start -->';
const END = '<!-- api-use:end -->';

const verdict = (ok: boolean) => (ok ? 'met' : '**missed**');

/** The goals of issue 17, by situation: requests a minute (a total for the outage's 90 s). */
export const API_USE_GOALS = { idleWithPush: 30, checkedEveryMinute: 60, outageFirst90s: 120 } as const;

function cells(situation: Situation | undefined): string {
  if (!situation) return 'n/a';
  return `${situation.perMinute} (${situation.lists} list, ${situation.checkPages} check-page requests in ${situation.seconds} s)`;
}

export function apiUseSection(after: ApiUseResult, before: ApiUseResult | null, measuredAt: string, machine: string): string {
  const find = (result: ApiUseResult | null, index: number) => result?.situations[index];
  const rows = after.situations.map((situation, index) =>
    `| ${situation.name}, push ${situation.push ? 'on' : 'off'} | a minute | ${cells(find(before, index))} | ${cells(situation)} |`);
  const outage = (result: ApiUseResult | null) =>
    result ? `${result.outage.requests} (${result.outage.lists} list, ${result.outage.checkPages} check-page requests); first down on the page after ${result.outage.firstDownSeconds ?? 'n/a'} s, all ${result.monitors} after ${result.outage.allDownSeconds ?? 'n/a'} s` : 'n/a';
  const idlePush = after.situations.find((situation) => situation.push && situation.name.startsWith('idle'));
  const checked = after.situations.filter((situation) => situation.name.startsWith('each monitor'));
  const worstChecked = Math.max(...checked.map((situation) => situation.perMinute));
  const slower = before && before.outage.allDownSeconds !== null && after.outage.allDownSeconds !== null ? after.outage.allDownSeconds - before.outage.allDownSeconds : null;
  return [
    START,
    `Measured ${measuredAt} on ${machine} (shared with other work: compare the columns, which ran side by side). ${after.monitors} HTTP monitors of a second organization on one public page, checking a loopback server; requests counted by a proxy between the site and the API; a visitor every 5 s; \`CACHE_FRESH_SECONDS=${after.freshSeconds}\`. Each situation runs on a fresh site after its warm-up. With push working the site polls every \`PUSH_POLL_SECONDS\` (300 s) only, so a window shorter than that may hold no poll at all.`,
    '',
    '| Situation | Per | Before | After |',
    '|---|---|---|---|',
    ...rows,
    `| ${after.outage.name}, push on | 90 s | ${outage(before)} | ${outage(after)} |`,
    '',
    '| Goal | Measured | Verdict |',
    '|---|---|---|',
    `| Idle with push < ${API_USE_GOALS.idleWithPush} a minute | ${idlePush?.perMinute ?? 'n/a'} | ${idlePush ? verdict(idlePush.perMinute < API_USE_GOALS.idleWithPush) : 'n/a'} |`,
    `| Every monitor checked each minute < ${API_USE_GOALS.checkedEveryMinute} a minute (push on and off) | ${worstChecked} | ${verdict(worstChecked < API_USE_GOALS.checkedEveryMinute)} |`,
    `| ${after.monitors}-monitor outage < ${API_USE_GOALS.outageFirst90s} in the first 90 s | ${after.outage.requests} | ${verdict(after.outage.requests < API_USE_GOALS.outageFirst90s)} |`,
    `| The outage on the page as fast as before | all down after ${after.outage.allDownSeconds ?? 'n/a'} s${slower === null ? '' : ` (${slower >= 0 ? '+' : ''}${slower.toFixed(1)} s)`} | ${slower === null ? 'n/a' : verdict(slower <= 5)} |`,
    END,
  ].join('\n');
}

export function renderApiUseReport(section: string, existing: string): string {
  if (existing.includes(START) && existing.includes(END)) {
    return `${existing.slice(0, existing.indexOf(START))}${section}${existing.slice(existing.indexOf(END) + END.length)}`;
  }
  return `${existing.trimEnd()}\n\n## API use at the largest organization\n\n${section}\n`;
}
