import { parseInstant } from '../lib/time.ts';

/** The latest readable instant among `values` (epoch ms), or null when none is readable. */
export function latestInstant(values: readonly unknown[]): number | null {
  let latest: number | null = null;
  for (const value of values) {
    const ms = parseInstant(value);
    if (ms !== null && (latest === null || ms > latest)) latest = ms;
  }
  return latest;
}
