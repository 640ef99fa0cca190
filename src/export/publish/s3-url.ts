/**
 * `--publish s3://BUCKET/PREFIX`: where the export goes in a bucket. The prefix is a folder of
 * the bucket (no leading or trailing slash kept); the files' own paths follow it.
 */

export interface PublishTarget {
  bucket: string;
  /** '' (the bucket's root) or e.g. 'status' or 'sites/status'. */
  prefix: string;
}

/** Why a --publish value is refused; the message names the option. */
export class PublishUrlError extends Error {
  override name = 'PublishUrlError';
}

/**
 * S3's bucket rules (3–63 characters: lower-case letters, digits, '.', '-'; starting and ending
 * with a letter or digit), which R2, B2 and MinIO share.
 */
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const SEGMENT = /^[A-Za-z0-9!_.*'()~ -]+$/;

export function parsePublishUrl(value: string): PublishTarget {
  const refuse = (why: string): never => {
    throw new PublishUrlError(`--publish must be s3://BUCKET or s3://BUCKET/PREFIX: ${why}`);
  };
  const match = /^s3:\/\/([^/?#]*)(?:\/([^?#]*))?$/.exec(value);
  if (!match) return refuse(value.startsWith('s3://') ? `${JSON.stringify(value)} has a query or fragment` : `${JSON.stringify(value)} is not an s3:// URL`);
  const bucket = match[1] ?? '';
  if (!BUCKET.test(bucket) || bucket.includes('..') || /^\d+\.\d+\.\d+\.\d+$/.test(bucket)) return refuse(`${JSON.stringify(bucket)} is not a bucket name`);
  const segments = (match[2] ?? '').split('/').filter((segment) => segment !== '');
  for (const segment of segments) {
    if (segment === '.' || segment === '..' || !SEGMENT.test(segment)) return refuse(`the prefix segment ${JSON.stringify(segment)} is not a plain folder name`);
  }
  return { bucket, prefix: segments.join('/') };
}

/** The object key of an export file (folder-relative, POSIX separators). */
export function objectKey(target: PublishTarget, file: string): string {
  return target.prefix ? `${target.prefix}/${file}` : file;
}

/** The export file an object key stands for; null for a key outside the prefix. */
export function fileOfKey(target: PublishTarget, key: string): string | null {
  if (!target.prefix) return key;
  return key.startsWith(`${target.prefix}/`) ? key.slice(target.prefix.length + 1) : null;
}

export function describeTarget(target: PublishTarget): string {
  return `s3://${target.bucket}/${target.prefix}`;
}
