/**
 * DeleteObjects must carry an integrity header. Since early 2025 the SDK sends a CRC32 checksum
 * for it even with requestChecksumCalculation WHEN_REQUIRED, and MinIO, B2, Oracle and other
 * S3-compatible stores refuse that, asking for Content-MD5 (aws-sdk-js-v3#6819, #6920). As the
 * SDK's own MD5_FALLBACK note describes, this middleware replaces the checksum with Content-MD5
 * on DeleteObjects only; AWS S3 accepts either.
 */
import type { S3Client } from '@aws-sdk/client-s3';
import { createHash } from 'node:crypto';

interface RequestArgs {
  request?: unknown;
}

function isRequest(value: unknown): value is { headers: Record<string, string>; body?: unknown } {
  return typeof value === 'object' && value !== null && 'headers' in value && typeof value.headers === 'object' && value.headers !== null;
}

/** Runs after the build step (where the SDK adds its checksum) and before the request is signed. */
function deleteContentMd5<Args extends RequestArgs, Result>(next: (args: Args) => Promise<Result>, context: { commandName?: string }): (args: Args) => Promise<Result> {
  return async (args) => {
    const { request } = args;
    if (context.commandName === 'DeleteObjectsCommand' && isRequest(request) && (typeof request.body === 'string' || request.body instanceof Uint8Array)) {
      for (const name of Object.keys(request.headers)) {
        if (/^x-amz-(checksum|sdk-checksum)-/i.test(name)) delete request.headers[name];
      }
      request.headers['content-md5'] = createHash('md5').update(request.body).digest('base64');
    }
    return next(args);
  };
}

export function useContentMd5ForDeletes(client: S3Client): void {
  client.middlewareStack.addRelativeTo(deleteContentMd5, { name: 'porchlightDeleteContentMd5', relation: 'before', toMiddleware: 'httpSigningMiddleware' });
}
