/**
 * Which requests the front cache may answer, and under which key: GET and HEAD only (the
 * request gate refuses other methods first, and paths over its length limit), keyed by the host
 * name with its port and the path. No query parameter is part of a page's address (months of
 * history are paths: /<slug>/history/YYYY-MM/), so none reaches the renderer either: a query
 * string neither makes a render nor a cache entry, whatever its length.
 */
import { normalizeHost } from '../../site/view/routing.ts';

/** A DNS name or IPv4 address, or a bracketed IPv6 address, with an optional port: nothing else. */
const VALID_HOST = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*\.?|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/**
 * The Host header as the site may see it, or null when it is not a plain host[:port]. A Host
 * such as `status.example.com:80/history?` must never reach the renderer, where it would turn
 * into another URL than the one the cache stores it under.
 */
export function validHost(host: string | undefined): string | null {
  if (!host || host.length > 260 || !VALID_HOST.test(host)) return null;
  return host.toLowerCase();
}

/**
 * The cache key part of a valid Host: the host name as the site matches it against custom
 * domains, with the port kept, since absolute links (feeds, JSON) are built from the Host.
 */
export function hostKey(host: string): string {
  const name = normalizeHost(host) ?? '';
  const port = /\]?:(\d{1,5})$/.exec(host)?.[1];
  return port ? `${name}:${port}` : name;
}

export interface CheckedHost {
  /** The Host to render with. */
  host: string;
  /** The host name the cache keys by. */
  key: string;
  /** The host name alone (no port), as custom domains are matched. */
  name: string;
  /** Cache targets of this host's URLs, remembered (see cacheTarget). */
  targets: Map<string, CacheTarget | null>;
}

const checked = new Map<string, CheckedHost | null>();
const MAX_REMEMBERED_HOSTS = 1024;

/** validHost and hostKey together, remembered: a site sees a handful of distinct Host headers. */
export function checkHost(header: string | undefined): CheckedHost | null {
  const raw = header ?? '';
  const known = checked.get(raw);
  if (known !== undefined) return known;
  const valid = validHost(raw);
  // Rendered with the spelling the key uses (no trailing dot), so the absolute links built from
  // the Host are the same for every request that shares the key.
  const host = valid === null ? null : valid.replace(/\.(?=:\d+$|$)/, '');
  const result = host === null ? null : { host, key: hostKey(host), name: normalizeHost(host) ?? '', targets: new Map() };
  if (checked.size >= MAX_REMEMBERED_HOSTS) checked.clear();
  checked.set(raw, result);
  return result;
}

/**
 * The path alone, so `?utm_source=…` or a cache-busting `?x=123` neither splits the cache nor
 * fills it.
 */
export function canonicalPath(url: string): string {
  const queryAt = url.indexOf('?');
  return queryAt === -1 ? url : url.slice(0, queryAt);
}

/** The length of the path without its query string, without making a copy (the gate's hot path). */
export function pathLength(url: string): number {
  const queryAt = url.indexOf('?');
  return queryAt === -1 ? url.length : queryAt;
}

/** The `month` of the old history address, `/<slug>/history?month=YYYY-MM`, or null. */
function legacyMonth(url: string): string | null {
  const queryAt = url.indexOf('?');
  return queryAt === -1 ? null : new URLSearchParams(url.slice(queryAt + 1)).get('month');
}

/** A month is seven characters; anything longer is cut before it reaches the site. */
const MAX_MONTH_LENGTH = 16;

/**
 * What the site is asked for when a request is passed through uncached: the path, plus the one
 * parameter the site reads (the old address's `month`, for its redirect). Nothing else of the
 * query string reaches the renderer.
 */
export function forwardedPath(url: string): string {
  const path = canonicalPath(url);
  const month = legacyMonth(url);
  return month === null ? path : `${path}?month=${encodeURIComponent(month.slice(0, MAX_MONTH_LENGTH))}`;
}

export interface CacheTarget {
  key: string;
  /** What is rendered and stored under the key. */
  path: string;
}

/**
 * URLs remembered across all hosts (a site has a few hundred addresses; junk URLs only cause a
 * clear-out), and the longest one remembered: at most a few megabytes whatever clients send.
 */
const MAX_REMEMBERED_TARGETS = 4096;
const MAX_REMEMBERED_URL_LENGTH = 256;
let rememberedTargets = 0;

/**
 * The key of a GET or HEAD for an origin-form path (see request-gate.ts), or null: not cacheable.
 * Remembered per host, so a hit costs one map look-up rather than parsing and a new key string.
 */
export function cacheTarget(url: string, host: CheckedHost): CacheTarget | null {
  const known = host.targets.get(url);
  if (known !== undefined) return known;
  const target = targetOf(url, host);
  if (url.length > MAX_REMEMBERED_URL_LENGTH) return target;
  if (rememberedTargets >= MAX_REMEMBERED_TARGETS) {
    for (const checkedHost of checked.values()) checkedHost?.targets.clear();
    rememberedTargets = 0;
  }
  host.targets.set(url, target);
  rememberedTargets += 1;
  return target;
}

function targetOf(url: string, host: CheckedHost): CacheTarget | null {
  if (!url.startsWith('/')) return null;
  // Passed through (see forwardedPath): its redirect depends on the query, and is never stored.
  if (legacyMonth(url) !== null) return null;
  const path = canonicalPath(url);
  return { key: `${host.key} ${path}`, path };
}
