/**
 * What one publish does, decided from three facts without any request: the files this export
 * wants in the bucket, the bucket's manifest (a hint), and the listing (what is there, with
 * ETags). Uploads come in two waves, each deepest first: files the bucket does not have yet, then
 * files it has in another version, so a page is replaced only once everything it links is in
 * place. Deletions come after both waves, and only of objects an earlier run published.
 */
import { createHash } from 'node:crypto';
import { headersFingerprint, type ObjectHeaders } from './object-headers.ts';
import type { BucketManifest, ManifestEntry } from './manifest.ts';

export interface DesiredObject {
  body: Buffer;
  headers: ObjectHeaders;
  sha256: string;
  /** Hex MD5: the ETag a single-part upload of these bytes gets. */
  md5: string;
}

export function desiredObject(body: Buffer, headers: ObjectHeaders): DesiredObject {
  return { body, headers, sha256: createHash('sha256').update(body).digest('hex'), md5: createHash('md5').update(body).digest('hex') };
}

export function manifestEntry(object: DesiredObject): ManifestEntry {
  return { sha256: object.sha256, md5: object.md5, headers: headersFingerprint(object.headers) };
}

export interface PublishPlan {
  /** Confirmed by the manifest and the listing's ETag: nothing to send. */
  unchanged: string[];
  /** In the bucket, but its content or headers are not confirmed: a HEAD decides (upload if it differs). */
  verify: string[];
  /** Not in the bucket: uploaded in the first wave. */
  create: string[];
  /** In the bucket in another version (per the manifest): uploaded in the second wave. */
  replace: string[];
  /** Published by an earlier run, still there, no longer wanted: deleted after the uploads. */
  delete: string[];
}

/** Deepest first: an incident's page before the status page that links it. */
export function uploadOrder(a: string, b: string): number {
  const depth = (file: string): number => file.split('/').length;
  return depth(b) - depth(a) || (a < b ? -1 : a > b ? 1 : 0);
}

/** S3 ETags are quoted hex; compared without quotes and case. */
const bareEtag = (etag: string): string => etag.replace(/^W\//, '').replace(/"/g, '').toLowerCase();

/**
 * `listed`: export file → ETag of every object under the prefix (the manifest object excluded).
 */
export function planPublish(desired: ReadonlyMap<string, DesiredObject>, manifest: BucketManifest | null, listed: ReadonlyMap<string, string>): PublishPlan {
  const plan: PublishPlan = { unchanged: [], verify: [], create: [], replace: [], delete: [] };
  const pending = new Set(manifest?.pending ?? []);
  for (const [file, object] of desired) {
    const etag = listed.get(file);
    if (etag === undefined) {
      plan.create.push(file);
      continue;
    }
    const recorded = manifest?.objects[file];
    const same = recorded !== undefined && recorded.sha256 === object.sha256 && recorded.headers === headersFingerprint(object.headers);
    if (manifest === null || pending.has(file)) plan.verify.push(file);
    else if (!same) plan.replace.push(file);
    else if (bareEtag(etag) === object.md5) plan.unchanged.push(file);
    // The manifest says so but the ETag is no MD5 (SSE-KMS) or someone replaced the object.
    else plan.verify.push(file);
  }
  const published = new Set([...Object.keys(manifest?.objects ?? {}), ...pending]);
  for (const file of listed.keys()) if (published.has(file) && !desired.has(file)) plan.delete.push(file);
  plan.create.sort(uploadOrder);
  plan.replace.sort(uploadOrder);
  plan.verify.sort(uploadOrder);
  plan.unchanged.sort();
  plan.delete.sort();
  return plan;
}

/** The manifest a run writes before touching anything: the old one, with what it is about to touch marked unknown. */
export function interimManifest(previous: BucketManifest | null, touching: readonly string[]): BucketManifest {
  return { version: 1, objects: { ...(previous?.objects ?? {}) }, pending: [...(previous?.pending ?? []), ...touching] };
}

/** The manifest of a finished run: exactly what the bucket now holds of this export. */
export function finalManifest(desired: ReadonlyMap<string, DesiredObject>): BucketManifest {
  const objects: Record<string, ManifestEntry> = {};
  for (const [file, object] of desired) objects[file] = manifestEntry(object);
  return { version: 1, objects, pending: [] };
}

/** DeleteObjects takes at most 1,000 keys. */
export const DELETE_BATCH = 1_000;

export function batches<T>(items: readonly T[], size: number): T[][] {
  if (size < 1) throw new RangeError('batch size must be at least 1');
  const out: T[][] = [];
  for (let start = 0; start < items.length; start += size) out.push(items.slice(start, start + size));
  return out;
}
