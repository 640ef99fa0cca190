/**
 * Validates the API base address: http(s), ending in the version prefix /api/v1
 * (a trailing slash is accepted), no credentials, query or fragment.
 */
import { ApiUsageError } from './errors.ts';

export interface BaseUrl {
  /** `http://host:port` */
  origin: string;
  /** Path prefix without trailing slash, e.g. `/api/v1` or `/status/api/v1`. */
  basePath: string;
}

const VERSION_PREFIX = '/api/v1';

export function parseBaseUrl(input: string): BaseUrl {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new ApiUsageError('baseUrl must be an absolute http(s) URL ending in /api/v1');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ApiUsageError('baseUrl must use http or https');
  }
  if (url.username || url.password) {
    throw new ApiUsageError('baseUrl must not carry credentials; pass apiKey instead');
  }
  if (url.search || url.hash) {
    throw new ApiUsageError('baseUrl must not have a query or fragment');
  }
  const basePath = url.pathname.replace(/\/+$/, '');
  if (!basePath.endsWith(VERSION_PREFIX)) {
    throw new ApiUsageError('baseUrl must end in /api/v1');
  }
  return { origin: url.origin, basePath };
}
