/**
 * Publishes an export (the files of one pass, in memory, with the site's answers) to a bucket.
 * Order of writes, so that the bucket serves the previous or the next version of every file and
 * nothing in between (a PUT replaces an object atomically):
 *   1. list the prefix (this also checks that the bucket exists and may be read) and read the manifest;
 *   2. when anything must change: write the manifest with the keys about to be touched as pending
 *      (this checks that the bucket may be written, before anything is uploaded or deleted);
 *   3. upload new files, then changed ones (plan.ts), with bounded concurrency;
 *   4. delete objects an earlier run published that are no longer wanted, 1,000 keys a request;
 *   5. write the final manifest.
 * A run that stops anywhere leaves a manifest that makes the next run check what it may have
 * touched (by HEAD) and finish the job.
 */
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  NoSuchKey,
  paginateListObjectsV2,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { createHash } from 'node:crypto';
import type { FileAnswer } from '../crawl.ts';
import { parseBucketManifest, PUBLISH_MANIFEST_NAME, serializeBucketManifest, type BucketManifest } from './manifest.ts';
import { useContentMd5ForDeletes } from './delete-md5.ts';
import { objectHeaders } from './object-headers.ts';
import { batches, DELETE_BATCH, desiredObject, finalManifest, interimManifest, planPublish, uploadOrder, type DesiredObject } from './plan.ts';
import { describeTarget, fileOfKey, objectKey, type PublishTarget } from './s3-url.ts';
import { PUBLISH_CONCURRENCY, type PublishSettings } from './s3-settings.ts';

/** The one line a failed publish ends with. */
export class PublishError extends Error {
  override name = 'PublishError';
}

export interface PublishResult {
  uploaded: string[];
  unchanged: string[];
  deleted: string[];
  /** Objects checked with a HEAD because the manifest could not vouch for them. */
  verified: number;
}

/** Object metadata (x-amz-meta-porchlight-sha256): lets a later run check an object by HEAD. */
const SHA256_META = 'porchlight-sha256';

function errorName(error: unknown): string {
  if (error instanceof S3ServiceException) return error.name;
  return error instanceof Error ? (('code' in error && typeof error.code === 'string' && error.code) || error.name) : 'Error';
}

/** One line for an S3 failure, naming the setting to look at. */
export function describeS3Error(error: unknown, target: PublishTarget, settings: PublishSettings, doing: string): string {
  const name = errorName(error);
  const status = error instanceof S3ServiceException ? error.$metadata.httpStatusCode : undefined;
  const where = `${describeTarget(target)} at ${settings.endpointLabel}`;
  if (name === 'CredentialsProviderError' || /credential/i.test(error instanceof Error ? error.message : '') && status === undefined) {
    return `no AWS credentials for ${where}: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or AWS_PROFILE)`;
  }
  if (error instanceof Error && /region is missing/i.test(error.message)) return `no region for ${where}: set AWS_REGION`;
  if (name === 'NoSuchBucket') return `the bucket ${target.bucket} does not exist at ${settings.endpointLabel} (--publish ${describeTarget(target)}, AWS_ENDPOINT_URL)`;
  if (name === 'InvalidAccessKeyId') return `${settings.endpointLabel} does not know the key AWS_ACCESS_KEY_ID while ${doing} ${describeTarget(target)} (InvalidAccessKeyId)`;
  if (name === 'SignatureDoesNotMatch') return `${settings.endpointLabel} refused the signature while ${doing} ${describeTarget(target)}: check AWS_SECRET_ACCESS_KEY (SignatureDoesNotMatch)`;
  if (name === 'AccessDenied' || name === 'Forbidden' || status === 403) return `${settings.endpointLabel} refused access while ${doing} ${describeTarget(target)}: check that AWS_ACCESS_KEY_ID may list, read, write and delete there (${name})`;
  if (name === 'PermanentRedirect' || name === 'AuthorizationHeaderMalformed' || status === 301) return `the bucket ${target.bucket} is in another region: set AWS_REGION to the bucket's (${name})`;
  if (status === undefined && /ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|ECONNRESET/.test(`${name} ${error instanceof Error ? error.message : ''}`)) {
    return `cannot reach ${settings.endpointLabel} (AWS_ENDPOINT_URL) while ${doing} ${describeTarget(target)}: ${name}`;
  }
  return `${doing} ${where} failed: ${name}${status ? ` (${status})` : ''}${error instanceof Error && error.message && error.message !== name ? `: ${error.message}` : ''}`;
}

/** Runs `work` over `items`, at most `limit` at a time; the first failure stops new work and is thrown. */
async function inParallel<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | null = null;
  const worker = async (): Promise<void> => {
    while (failure === null && next < items.length) {
      const item = items[next]!;
      next += 1;
      try {
        await work(item);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failure !== null) throw (failure as { error: unknown }).error;
}

export class Publisher {
  readonly target: PublishTarget;
  private readonly settings: PublishSettings;
  private readonly client: S3Client;
  /** CACHE_MAX_STALE_SECONDS: how long a CDN may serve an object stale while the bucket fails. */
  private readonly maxStaleSeconds: number;

  constructor(target: PublishTarget, settings: PublishSettings, maxStaleSeconds: number) {
    this.target = target;
    this.settings = settings;
    this.maxStaleSeconds = maxStaleSeconds;
    this.client = new S3Client(settings.config);
    useContentMd5ForDeletes(this.client);
  }

  private async step<T>(doing: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw new PublishError(describeS3Error(error, this.target, this.settings, doing));
    }
  }

  /** Every object under the prefix (the manifest left out): export file → ETag. Pages through the listing. */
  private async list(): Promise<Map<string, string>> {
    return this.step('listing', async () => {
      const listed = new Map<string, string>();
      const prefix = this.target.prefix ? `${this.target.prefix}/` : undefined;
      for await (const page of paginateListObjectsV2({ client: this.client, pageSize: 1_000 }, { Bucket: this.target.bucket, ...(prefix && { Prefix: prefix }) })) {
        for (const object of page.Contents ?? []) {
          const file = object.Key === undefined ? null : fileOfKey(this.target, object.Key);
          if (file !== null && file !== PUBLISH_MANIFEST_NAME) listed.set(file, object.ETag ?? '');
        }
      }
      return listed;
    });
  }

  /** Fails with the line to print when the bucket is missing, refuses access, or there are no credentials. */
  async checkAccess(): Promise<void> {
    await this.list();
  }

  private async readManifest(): Promise<BucketManifest | null> {
    return this.step('reading the manifest of', async () => {
      try {
        const response = await this.client.send(new GetObjectCommand({ Bucket: this.target.bucket, Key: objectKey(this.target, PUBLISH_MANIFEST_NAME) }));
        return parseBucketManifest((await response.Body?.transformToString()) ?? null);
      } catch (error) {
        if (error instanceof NoSuchKey) return null;
        throw error;
      }
    });
  }

  private async writeManifest(manifest: BucketManifest): Promise<void> {
    const body = Buffer.from(serializeBucketManifest(manifest));
    await this.step('writing the manifest to', () =>
      this.client.send(
        new PutObjectCommand({
          Bucket: this.target.bucket,
          Key: objectKey(this.target, PUBLISH_MANIFEST_NAME),
          Body: body,
          ContentType: 'application/json',
          CacheControl: 'no-store',
          ContentMD5: createHash('md5').update(body).digest('base64'),
        }),
      ),
    );
  }

  /** True when the object holds exactly these bytes (by its recorded hash) and headers. */
  private async matches(file: string, object: DesiredObject): Promise<boolean> {
    return this.step('checking', async () => {
      try {
        const head = await this.client.send(new HeadObjectCommand({ Bucket: this.target.bucket, Key: objectKey(this.target, file) }));
        const { headers } = object;
        return (
          head.Metadata?.[SHA256_META] === object.sha256 &&
          head.ContentLength === object.body.length &&
          head.ContentType === headers.contentType &&
          (head.CacheControl ?? undefined) === headers.cacheControl &&
          (head.ContentLanguage ?? undefined) === headers.contentLanguage &&
          (head.WebsiteRedirectLocation ?? undefined) === headers.redirect
        );
      } catch (error) {
        if (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404) return false;
        throw error;
      }
    });
  }

  private async upload(file: string, object: DesiredObject): Promise<void> {
    const { headers } = object;
    await this.step(`uploading ${file} to`, () =>
      this.client.send(
        new PutObjectCommand({
          Bucket: this.target.bucket,
          Key: objectKey(this.target, file),
          Body: object.body,
          ContentType: headers.contentType,
          ContentMD5: Buffer.from(object.md5, 'hex').toString('base64'),
          Metadata: { [SHA256_META]: object.sha256 },
          ...(headers.cacheControl && { CacheControl: headers.cacheControl }),
          ...(headers.contentLanguage && { ContentLanguage: headers.contentLanguage }),
          ...(headers.redirect && { WebsiteRedirectLocation: headers.redirect }),
        }),
      ),
    );
  }

  private async deleteFiles(files: readonly string[]): Promise<void> {
    for (const batch of batches(files, DELETE_BATCH)) {
      await this.step('deleting from', async () => {
        const response = await this.client.send(
          new DeleteObjectsCommand({ Bucket: this.target.bucket, Delete: { Quiet: true, Objects: batch.map((file) => ({ Key: objectKey(this.target, file) })) } }),
        );
        const failed = response.Errors ?? [];
        if (failed.length > 0) throw Object.assign(new Error(`${failed.length} objects not deleted, e.g. ${failed[0]?.Key}: ${failed[0]?.Code} ${failed[0]?.Message ?? ''}`.trim()), { name: failed[0]?.Code ?? 'DeleteError' });
      });
    }
  }

  async publish(files: ReadonlyMap<string, Buffer>, answers: ReadonlyMap<string, FileAnswer>): Promise<PublishResult> {
    const desired = new Map<string, DesiredObject>();
    for (const [file, body] of files) desired.set(file, desiredObject(body, objectHeaders(answers.get(file), this.maxStaleSeconds)));
    const [listed, manifest] = [await this.list(), await this.readManifest()];
    const plan = planPublish(desired, manifest, listed);

    const replace = [...plan.replace];
    const unchanged = [...plan.unchanged];
    const checked: string[] = [];
    await inParallel(plan.verify, PUBLISH_CONCURRENCY, async (file) => {
      if (await this.matches(file, desired.get(file)!)) unchanged.push(file);
      else checked.push(file);
    });
    replace.push(...checked);
    replace.sort(uploadOrder);

    const touching = [...plan.create, ...replace, ...plan.delete];
    const final = finalManifest(desired);
    if (touching.length > 0) await this.writeManifest(interimManifest(manifest, touching));
    for (const wave of [plan.create, replace]) await inParallel(wave, PUBLISH_CONCURRENCY, (file) => this.upload(file, desired.get(file)!));
    await this.deleteFiles(plan.delete);
    if (touching.length > 0 || manifest === null || serializeBucketManifest(manifest) !== serializeBucketManifest(final)) await this.writeManifest(final);
    return { uploaded: [...plan.create, ...replace], unchanged: unchanged.sort(), deleted: plan.delete, verified: plan.verify.length };
  }

  close(): void {
    this.client.destroy();
  }
}

/** e.g. `Published 57 files to s3://status/site: 3 uploaded, 54 unchanged, 1 deleted, 0.8 s` */
export function publishSummaryLine(target: PublishTarget, result: PublishResult, milliseconds: number): string {
  const files = result.uploaded.length + result.unchanged.length;
  const checked = result.verified > 0 ? `, ${result.verified} checked` : '';
  return `Published ${files} file${files === 1 ? '' : 's'} to ${describeTarget(target)}: ${result.uploaded.length} uploaded, ${result.unchanged.length} unchanged, ${result.deleted.length} deleted${checked}, ${(milliseconds / 1000).toFixed(1)} s`;
}
