/**
 * The S3 client's settings, from the standard AWS variables. Path-style addressing
 * (endpoint/bucket/key) whenever AWS_ENDPOINT_URL is set, since MinIO, Ceph and most
 * self-hosted stores need it and R2 and B2 accept it; virtual-hosted style for AWS itself.
 * AWS_S3_FORCE_PATH_STYLE=true|false overrides either default.
 */
import type { S3ClientConfig } from '@aws-sdk/client-s3';

/** A setting that cannot work; the message names it. */
export class PublishSettingError extends Error {
  override name = 'PublishSettingError';
}

export interface PublishSettings {
  config: S3ClientConfig;
  /** The endpoint named in messages: the one configured, or AWS S3. */
  endpointLabel: string;
}

/** Requests in flight at once, and attempts per request (the SDK backs off between them, longer after throttling). */
export const PUBLISH_CONCURRENCY = 8;
export const PUBLISH_MAX_ATTEMPTS = 6;

function flag(name: string, value: string | undefined): boolean | undefined {
  const given = value?.trim().toLowerCase();
  if (!given) return undefined;
  if (given === 'true' || given === '1') return true;
  if (given === 'false' || given === '0') return false;
  throw new PublishSettingError(`${name} must be true or false, not ${JSON.stringify(value)}`);
}

export function publishSettings(env: NodeJS.ProcessEnv): PublishSettings {
  const endpointName = env.AWS_ENDPOINT_URL_S3?.trim() ? 'AWS_ENDPOINT_URL_S3' : 'AWS_ENDPOINT_URL';
  const endpoint = env[endpointName]?.trim() || undefined;
  if (endpoint !== undefined) {
    let url: URL | null = null;
    try {
      url = new URL(endpoint);
    } catch {
      url = null;
    }
    if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password || url.search || url.hash) {
      throw new PublishSettingError(`${endpointName} must be an http(s) URL such as https://s3.example.com, not ${JSON.stringify(endpoint)}`);
    }
  }
  const keyId = env.AWS_ACCESS_KEY_ID?.trim();
  const secret = env.AWS_SECRET_ACCESS_KEY?.trim();
  if (keyId && !secret) throw new PublishSettingError('AWS_ACCESS_KEY_ID is set but AWS_SECRET_ACCESS_KEY is not');
  if (secret && !keyId) throw new PublishSettingError('AWS_SECRET_ACCESS_KEY is set but AWS_ACCESS_KEY_ID is not');
  const region = env.AWS_REGION?.trim() || env.AWS_DEFAULT_REGION?.trim() || (endpoint !== undefined ? 'us-east-1' : undefined);
  const config: S3ClientConfig = {
    forcePathStyle: flag('AWS_S3_FORCE_PATH_STYLE', env.AWS_S3_FORCE_PATH_STYLE) ?? endpoint !== undefined,
    // Newer SDKs send CRC32 checksums by default, which MinIO, R2, B2 and others reject.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: PUBLISH_MAX_ATTEMPTS,
    retryMode: 'standard',
  };
  if (endpoint !== undefined) config.endpoint = endpoint;
  if (region !== undefined) config.region = region;
  // Without both keys the SDK's own chain decides (AWS_PROFILE, SSO, container and instance roles).
  if (keyId && secret) config.credentials = { accessKeyId: keyId, secretAccessKey: secret, ...(env.AWS_SESSION_TOKEN?.trim() && { sessionToken: env.AWS_SESSION_TOKEN.trim() }) };
  return { config, endpointLabel: endpoint ?? 'AWS S3' };
}
