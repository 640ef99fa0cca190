/**
 * The 90-day bar as one small SVG: one path per day level, each day a column of the viewBox
 * (x = day index, oldest at 0), consecutive days of a level merged into one stroke whose dashes
 * (`DASHES`, period 1) cut it back into columns with gaps. A mostly healthy monitor is one path
 * `M0 7h90`, so 50 monitors cost a few KB instead of 90 labelled radios each. Shape carries the
 * level as well as colour: up days are 60% tall, minor 80%, major and down full height, down with
 * a cap, days without data hollow (an outline stroke with the card's colour inside).
 */
import type { DayLevel, UptimeDayView } from './types.ts';
import { translator, type Translator } from '../i18n/translator.ts';

/** Bar height in viewBox units (the width is one unit per day). */
export const BAR_HEIGHT = 10;
/** Gap, column, gap: each day's column is 0.8 wide, centred in its unit. */
export const DASHES = '0 .1 .8 .1';
/** The inside of a hollow day: a narrower column, so the outline stays. */
export const HOLLOW_DASHES = '0 .2 .6 .2';

/** What a path draws: a level, the cap of down days, or the inside of hollow days. */
export type BarLayer = DayLevel | 'cap' | 'hollow';

export interface BarPath {
  layer: BarLayer;
  d: string;
  /** Stroke width in viewBox units (the stroke is the column's height). */
  width: number;
  dashes: string;
}

export interface UptimeBarView {
  viewBox: string;
  paths: BarPath[];
  /** For screen readers: the count of days at each level. */
  summary: string;
}

/** Column height of each level, from the bottom of the bar. */
const HEIGHT: Readonly<Record<DayLevel, number>> = { up: 6, minor: 8, major: 10, down: 10, none: 10 };
const CAP = 1;
/** The hollow inside leaves about one pixel of outline above and below on a 2rem bar. */
const HOLLOW_INSET = 0.35;
/** Drawing order: the summary's order too, best first. */
const LEVELS: readonly DayLevel[] = ['up', 'minor', 'major', 'down', 'none'];

interface Run {
  start: number;
  length: number;
}

function runsOf(days: readonly UptimeDayView[], level: DayLevel): Run[] {
  const runs: Run[] = [];
  days.forEach((day, index) => {
    if (day.level !== level) return;
    const last = runs.at(-1);
    if (last && last.start + last.length === index) last.length += 1;
    else runs.push({ start: index, length: 1 });
  });
  return runs;
}

/** Horizontal strokes at height `y`, one per run. */
function strokes(runs: readonly Run[], y: number): string {
  return runs.map((run) => `M${run.start} ${y}h${run.length}`).join('');
}

export function uptimeBarView(days: readonly UptimeDayView[], monitorName: string, i18n: Translator = translator()): UptimeBarView {
  const paths: BarPath[] = [];
  const parts: string[] = [];
  for (const level of LEVELS) {
    const runs = runsOf(days, level);
    if (runs.length === 0) continue;
    const count = runs.reduce((sum, run) => sum + run.length, 0);
    parts.push(i18n.plural(`uptime.levelDays.${level}`, count));
    const height = HEIGHT[level];
    paths.push({ layer: level, d: strokes(runs, BAR_HEIGHT - height / 2), width: height, dashes: DASHES });
    if (level === 'down') paths.push({ layer: 'cap', d: strokes(runs, CAP / 2), width: CAP, dashes: DASHES });
    if (level === 'none') {
      paths.push({ layer: 'hollow', d: strokes(runs, BAR_HEIGHT / 2), width: BAR_HEIGHT - 2 * HOLLOW_INSET, dashes: HOLLOW_DASHES });
    }
  }
  return {
    viewBox: `0 0 ${days.length} ${BAR_HEIGHT}`,
    paths,
    summary: i18n.t('uptime.summary', { name: monitorName, days: days.length, parts: i18n.list(parts) }),
  };
}
