/**
 * What the event feed compared against last, kept in the subscribers store between runs: after a
 * restart (or a crash between a change and its mails) the first load is compared with it, so a
 * change made while Porchlight was stopped is still told, once. A baseline older than
 * BASELINE_MAX_AGE_MS is old news and is not used: that start only sets a new baseline, as a
 * first start does. Read through the contract's schemas, so a damaged value is ignored.
 */
import { z } from 'zod';
import { incidentSchema, maintenanceSchema, monitorSchema } from '../contract/index.ts';
import type { EventSource } from './snapshot-events.ts';

export const BASELINE_MAX_AGE_MS = 24 * 3_600_000;

const baselineSchema = z.object({
  savedAt: z.number(),
  fetchedAt: z.iso.datetime(),
  monitors: z.array(monitorSchema),
  incidents: z.array(incidentSchema),
  maintenance: z.array(maintenanceSchema),
});

export function encodeBaseline(source: EventSource, now: number): string {
  const { monitors, incidents, maintenance } = source;
  return JSON.stringify({ savedAt: now, fetchedAt: source.fetchedAt.toISOString(), monitors, incidents, maintenance });
}

export function decodeBaseline(value: string | null, now: number): EventSource | null {
  if (value === null) return null;
  let parsed: z.infer<typeof baselineSchema>;
  try {
    const result = baselineSchema.safeParse(JSON.parse(value));
    if (!result.success) return null;
    parsed = result.data;
  } catch {
    return null;
  }
  if (now - parsed.savedAt > BASELINE_MAX_AGE_MS) return null;
  return { monitors: parsed.monitors, incidents: parsed.incidents, maintenance: parsed.maintenance, fetchedAt: new Date(parsed.fetchedAt) };
}
