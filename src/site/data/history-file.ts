/**
 * Uptime aggregates on disk, so a restart neither loses 90 days nor fetches them again.
 * One JSON file, replaced atomically; it belongs to one API and organization, and a file
 * written for another (or unreadable) is ignored rather than mixed in.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomically } from './atomic-file.ts';
import { z } from 'zod';
import type { MonitorHistory } from './uptime-history.ts';

const dayCountersSchema = z.record(z.string(), z.object({ checks: z.number().int().nonnegative(), up: z.number().int().nonnegative() }));

/** One monitor's aggregates as written down (also part of the saved snapshot, see snapshot-file.ts). */
export const monitorHistorySchema = z.object({
  days: dayCountersSchema,
  // Absent in files written when only UTC days were counted: those histories start again for a zone.
  zoneDays: z.record(z.string(), dayCountersSchema).optional(),
  earlier: z.object({ days: dayCountersSchema, zoneDays: z.record(z.string(), dayCountersSchema).optional() }).optional(),
  headAt: z.string().nullable(),
  headIds: z.array(z.string()),
  tailAt: z.string().nullable(),
  tailIds: z.array(z.string()),
  backfillOffset: z.number().int().nonnegative(),
  complete: z.boolean(),
  recent: z.array(z.object({ checkedAt: z.string(), latency: z.number().nullable() })),
  seenLastCheckedAt: z.string().nullable().optional(),
  caughtUpAt: z.string().nullable().optional(),
});

const fileSchema = z.object({
  version: z.literal(1),
  owner: z.string(),
  histories: z.record(z.string(), monitorHistorySchema),
});

export interface HistoryFile {
  load(owner: string): Promise<Map<string, MonitorHistory>>;
  save(owner: string, histories: ReadonlyMap<string, MonitorHistory>): Promise<void>;
}

/** Keeps nothing: for tests and for CACHE_DIR=':memory:'. */
export const memoryHistoryFile: HistoryFile = {
  load: async () => new Map(),
  save: async () => undefined,
};

export function historyFile(directory: string): HistoryFile {
  const file = path.join(directory, 'uptime-history.json');
  return {
    async load(owner) {
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch {
        return new Map();
      }
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        return new Map();
      }
      const parsed = fileSchema.safeParse(json);
      if (!parsed.success || parsed.data.owner !== owner) return new Map();
      return new Map(Object.entries(parsed.data.histories));
    },
    async save(owner, histories) {
      // Private, like every file in CACHE_DIR: it names the organization's monitors.
      await writeFileAtomically(file, JSON.stringify({ version: 1, owner, histories: Object.fromEntries(histories) }), { mode: 0o600 });
    },
  };
}
