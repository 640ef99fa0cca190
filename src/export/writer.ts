/**
 * Writes an export into its folder incrementally and atomically. A manifest of content hashes
 * (MANIFEST_NAME, in the folder) says what the previous export wrote: a file whose bytes did not
 * change is not touched (so a sync to a CDN or object store uploads only the difference); a
 * changed one is written to a temporary name beside it and renamed over the old one (a visitor
 * never reads half a file); files the previous export wrote and this one does not are removed.
 * Files the export never wrote (a CNAME, a robots.txt of your own) are left alone.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rmdir, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomically } from '../site/data/atomic-file.ts';
import { z } from 'zod';

export const MANIFEST_NAME = '.porchlight-export.json';

const manifestSchema = z.object({
  version: z.literal(1),
  files: z.record(z.string(), z.string()),
});

export interface WriteResult {
  written: string[];
  unchanged: string[];
  removed: string[];
}

export function contentHash(body: Buffer): string {
  return createHash('sha256').update(body).digest('base64url');
}

/** The files the previous export wrote, with their hashes; none when there is no readable manifest. */
export async function readManifest(outDir: string): Promise<Map<string, string>> {
  try {
    const parsed = manifestSchema.safeParse(JSON.parse(await readFile(path.join(outDir, MANIFEST_NAME), 'utf8')));
    return parsed.success ? new Map(Object.entries(parsed.data.files)) : new Map();
  } catch {
    return new Map();
  }
}

/** A folder-relative path that stays inside the folder, in the platform's separators. */
function inside(outDir: string, file: string): string {
  const full = path.resolve(outDir, ...file.split('/'));
  if (!full.startsWith(`${path.resolve(outDir)}${path.sep}`)) throw new Error(`refusing to write outside ${outDir}: ${file}`);
  return full;
}


async function unchangedOnDisk(full: string, size: number): Promise<boolean> {
  try {
    const info = await stat(full);
    return info.isFile() && info.size === size;
  } catch {
    return false;
  }
}

/** Removes empty folders from `folder` up to (not including) `outDir`. */
async function pruneEmpty(outDir: string, folder: string): Promise<void> {
  const root = path.resolve(outDir);
  for (let current = folder; current.startsWith(`${root}${path.sep}`); current = path.dirname(current)) {
    try {
      await rmdir(current);
    } catch {
      return;
    }
  }
}

/** Deepest first: an incident's page is in place before the status page that links it. */
function writeOrder(a: string, b: string): number {
  const depth = (file: string) => file.split('/').length;
  return depth(b) - depth(a) || (a < b ? -1 : a > b ? 1 : 0);
}

export async function writeExport(outDir: string, files: ReadonlyMap<string, Buffer>): Promise<WriteResult> {
  const previous = await readManifest(outDir);
  const next = new Map<string, string>();
  const result: WriteResult = { written: [], unchanged: [], removed: [] };
  const leaving = [...previous.keys()].filter((file) => !files.has(file));

  // A file that left may stand where a new folder goes (acme/widget becoming acme/widget/index.html).
  const inTheWay = new Set(leaving.filter((gone) => [...files.keys()].some((kept) => kept.startsWith(`${gone}/`))));
  for (const file of inTheWay) await unlink(inside(outDir, file)).catch(() => undefined);

  for (const file of [...files.keys()].sort(writeOrder)) {
    const body = files.get(file)!;
    const hash = contentHash(body);
    next.set(file, hash);
    const full = inside(outDir, file);
    if (previous.get(file) === hash && (await unchangedOnDisk(full, body.length))) {
      result.unchanged.push(file);
      continue;
    }
    await writeFileAtomically(full, body);
    result.written.push(file);
  }

  for (const file of leaving) {
    result.removed.push(file);
    if (inTheWay.has(file)) continue;
    const full = inside(outDir, file);
    await unlink(full).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
    await pruneEmpty(outDir, path.dirname(full));
  }

  const manifest = `${JSON.stringify({ version: 1, files: Object.fromEntries([...next].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) }, null, 1)}\n`;
  const manifestPath = path.join(outDir, MANIFEST_NAME);
  const current = await readFile(manifestPath, 'utf8').catch(() => null);
  // Unchanged data rewrites nothing, the manifest included.
  if (current !== manifest) await writeFileAtomically(manifestPath, manifest);
  return result;
}

/** Fails with the system's reason when the folder cannot be created or written. */
export async function assertWritable(outDir: string): Promise<void> {
  await mkdir(outDir, { recursive: true });
  const probe = path.join(outDir, `.porchlight-write-test.${process.pid}.tmp`);
  await writeFile(probe, '');
  await unlink(probe);
}
