/**
 * The bucket's own manifest (PUBLISH_MANIFEST_NAME below the prefix): which objects the last run
 * published, with their content hashes and headers. An ETag is the MD5 of the bytes only for a
 * plain single-part upload without SSE-KMS or SSE-C, so the manifest, not the ETag, says what an
 * object holds; the listing's ETag only confirms it. It is a hint: keys a run was about to touch
 * are recorded as `pending` before it touches them, and are checked again by the next run.
 */
import { z } from 'zod';

export const PUBLISH_MANIFEST_NAME = '.porchlight-publish.json';

const entrySchema = z.object({
  sha256: z.string(),
  md5: z.string(),
  /** headersFingerprint() of the object's headers. */
  headers: z.string(),
});

const manifestSchema = z.object({
  version: z.literal(1),
  objects: z.record(z.string(), entrySchema),
  /** Files (export paths) a run was uploading or deleting when it wrote this: their state is unknown. */
  pending: z.array(z.string()),
});

export type ManifestEntry = z.infer<typeof entrySchema>;
export type BucketManifest = z.infer<typeof manifestSchema>;

/** The manifest in the bucket; null when there is none or it cannot be read (then nothing is trusted). */
export function parseBucketManifest(text: string | null): BucketManifest | null {
  if (text === null) return null;
  try {
    const parsed = manifestSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

const byName = <T>(entries: [string, T][]): [string, T][] => entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

export function serializeBucketManifest(manifest: BucketManifest): string {
  return `${JSON.stringify({ version: 1, objects: Object.fromEntries(byName(Object.entries(manifest.objects))), pending: [...new Set(manifest.pending)].sort() }, null, 1)}\n`;
}
