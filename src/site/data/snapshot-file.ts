/**
 * The last good snapshot on disk, so a restart while the API is down still shows the pages
 * (dated, as stale data) instead of a 503. One JSON file in CACHE_DIR next to the uptime
 * history, replaced atomically after each successful refresh. It holds what the pages show and
 * nothing else: no API key, and no monitor targets or request details (URLs, headers and bodies
 * of checks can carry credentials). Read back through the contract's schemas, so a corrupt,
 * truncated, oversized or foreign file never reaches a page: it is ignored with one reason.
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomically } from './atomic-file.ts';
import { z } from 'zod';
import { incidentSchema, maintenanceSchema, monitorSchema, organizationSchema, pageMonitorSchema, statusPageSchema, type Monitor } from '../../contract/index.ts';
import { monitorHistorySchema } from './history-file.ts';
import type { Snapshot } from './snapshot.ts';

/** Far above any real organization's snapshot; a bigger file is neither written nor read. */
export const MAX_SNAPSHOT_BYTES = 32 * 1024 * 1024;
export const SNAPSHOT_FILE_NAME = 'snapshot.json';

const fileSchema = z.object({
  version: z.literal(1),
  owner: z.string(),
  fetchedAt: z.iso.datetime(),
  organization: organizationSchema.nullable(),
  pages: z.array(statusPageSchema.extend({ monitors: z.array(pageMonitorSchema) })),
  monitors: z.array(monitorSchema),
  incidents: z.array(incidentSchema),
  maintenance: z.array(maintenanceSchema),
  histories: z.record(z.string(), monitorHistorySchema),
});

/** What a monitor is on a page; where and how it is checked stays out of the file. */
function publicMonitor(monitor: Monitor): Monitor {
  const kept: Monitor = { ...monitor };
  for (const field of ['url', 'host', 'port', 'method', 'headers', 'body', 'rules'] as const) delete kept[field];
  return kept;
}

export type LoadResult = { snapshot: Snapshot } | { ignored: string } | { missing: true };

export interface SnapshotFile {
  load(owner: string): Promise<LoadResult>;
  save(owner: string, snapshot: Snapshot): Promise<void>;
}

/** Keeps nothing: for tests and for CACHE_DIR=':memory:'. */
export const memorySnapshotFile: SnapshotFile = {
  load: async () => ({ missing: true }),
  save: async () => undefined,
};

export function serializeSnapshot(owner: string, snapshot: Snapshot): string {
  return JSON.stringify({
    version: 1,
    owner,
    fetchedAt: snapshot.fetchedAt.toISOString(),
    organization: snapshot.organization,
    pages: snapshot.pages,
    monitors: snapshot.monitors.map(publicMonitor),
    incidents: snapshot.incidents,
    maintenance: snapshot.maintenance,
    histories: Object.fromEntries(snapshot.histories),
  });
}

export function parseSnapshot(owner: string, text: string): LoadResult {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ignored: 'not valid JSON (truncated or corrupt)' };
  }
  const parsed = fileSchema.safeParse(json);
  if (!parsed.success) return { ignored: 'not a snapshot this version can read' };
  if (parsed.data.owner !== owner) return { ignored: 'written for another API or key' };
  const { organization, pages, monitors, incidents, maintenance, histories, fetchedAt } = parsed.data;
  return { snapshot: { organization, pages, monitors, incidents, maintenance, histories: new Map(Object.entries(histories)), fetchedAt: new Date(fetchedAt) } };
}

export function snapshotFile(directory: string): SnapshotFile {
  const file = path.join(directory, SNAPSHOT_FILE_NAME);
  return {
    async load(owner) {
      try {
        const { size } = await stat(file);
        if (size > MAX_SNAPSHOT_BYTES) return { ignored: `larger than ${MAX_SNAPSHOT_BYTES} bytes` };
        return parseSnapshot(owner, await readFile(file, 'utf8'));
      } catch (error) {
        if (error instanceof Error && 'code' in error && error.code === 'ENOENT') return { missing: true };
        return { ignored: `unreadable (${error instanceof Error && 'code' in error ? String(error.code) : 'error'})` };
      }
    },
    async save(owner, snapshot) {
      const body = serializeSnapshot(owner, snapshot);
      if (Buffer.byteLength(body) > MAX_SNAPSHOT_BYTES) throw new Error(`the snapshot is larger than ${MAX_SNAPSHOT_BYTES} bytes`);
      await writeFileAtomically(file, body, { mode: 0o600 });
    },
  };
}
