import { CheckFailure } from './check-failure.ts';

/** One HTTP request of a check; a redirect produces the next one. */
export interface HttpRequestPlan {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body: string | null;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** Credentials are not handed to another origin, as browsers and fetch do. */
const CROSS_ORIGIN_STRIPPED = new Set(['authorization', 'proxy-authorization', 'cookie']);

/** Headers that describe a request body, dropped when a redirect turns the request into a GET. */
const BODY_HEADERS = new Set(['content-type', 'content-length', 'content-encoding', 'content-language', 'content-location']);

function withoutHeaders(headers: Record<string, string>, names: ReadonlySet<string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !names.has(name.toLowerCase())));
}

function firstValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The request a redirect response leads to, or null when the response is final (not a redirect
 * status, or a 3xx without Location, which then counts as the final response).
 * Follows fetch's rules: 303 (and 301/302 after a POST) become a GET without body; 307/308 keep both.
 */
export function nextRedirect(
  current: HttpRequestPlan,
  statusCode: number,
  location: string | string[] | undefined,
): HttpRequestPlan | null {
  const target = firstValue(location);
  if (!REDIRECT_STATUSES.has(statusCode) || target === undefined || target === '') return null;

  let url: URL;
  try {
    url = new URL(target, current.url);
  } catch {
    throw new CheckFailure(`redirect (${statusCode}) to an invalid location`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new CheckFailure(`redirect (${statusCode}) to unsupported protocol ${url.protocol}`);
  }

  let headers = current.headers;
  if (url.origin !== current.url.origin) headers = withoutHeaders(headers, CROSS_ORIGIN_STRIPPED);

  const toGet = statusCode === 303 ? current.method !== 'HEAD' : (statusCode === 301 || statusCode === 302) && current.method === 'POST';
  if (toGet) {
    return { url, method: 'GET', headers: withoutHeaders(headers, BODY_HEADERS), body: null };
  }
  return { url, method: current.method, headers, body: current.body };
}
