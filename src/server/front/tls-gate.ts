/**
 * The gate a TLS-terminating proxy asks before it obtains a certificate on demand
 * (Caddy's `on_demand_tls { ask … }`): `GET /_porchlight/tls-allowed?domain=NAME` answers 200
 * only for the custom domain of a public page in the site's current data, or the main host of
 * SITE_PUBLIC_URL; every other name gets the same 404, whatever the reason, so the gate tells a
 * prober nothing the DNS does not. Answered on the serving thread from the names the site
 * announces after each load or restored snapshot (site/data/custom-domains.ts): no API call per
 * ask, no render, and renewals keep working while the API is down.
 *
 * Status page changes (a page made non-public, a new domain) come with no push from the API, and
 * the site refreshes its data when it is asked for. So an ask counts as a visit: when the names
 * are older than the data's freshness, the gate asks the site for fresh data and waits briefly
 * for its next announcement, so a page made non-public is refused within CACHE_FRESH_SECONDS.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { followCustomDomains } from '../../site/data/custom-domains.ts';
import { askForFreshData } from '../../site/data/data-wanted.ts';
import { allowedNames, decideName } from '../../site/view/certificate-eligibility.ts';

export const TLS_GATE_PATH = '/_porchlight/tls-allowed';

export type TlsDecision = 'allowed' | 'refused' | 'not-ready' | 'bad-request';

export interface TlsGateCounts {
  allowed: number;
  refused: number;
}

export interface TlsGate {
  /** Whether the request is for the gate (any query, any method). */
  matches(url: string): boolean;
  handle(request: IncomingMessage, response: ServerResponse): void;
  readonly counts: TlsGateCounts;
  close(): void;
}

export interface TlsGateOptions {
  /** SITE_PUBLIC_URL's host name, if set: the main host gets its certificate through the gate too. */
  publicHostName: string | null;
  /** How long announced names count as current (the site's CACHE_FRESH_SECONDS). */
  freshMs: number;
  /** Longest wait for the site's next announcement once the names are no longer current. */
  maxWaitMs?: number;
  now?: () => number;
  /** Stands in for the site's announcements and its refresh (tests). */
  domains?: (onAnnounce: () => void) => { current(): ReadonlySet<string> | null; close(): void };
  askForFreshData?: () => void;
}

/** The gate's question, from its query string. `allowed` holds normalized names (allowedNames). */
export function decideTls(query: string, allowed: ReadonlySet<string> | null, publicHostName: string | null): TlsDecision {
  const names = new URLSearchParams(query).getAll('domain');
  return names.length === 1 ? decideName(names[0] ?? '', allowed, publicHostName) : 'bad-request';
}

const ANSWERS: Record<TlsDecision | 'method', { status: number; body: string; headers?: Record<string, string> }> = {
  allowed: { status: 200, body: 'allowed\n' },
  refused: { status: 404, body: 'not allowed\n' },
  'not-ready': { status: 503, body: 'not ready\n', headers: { 'retry-after': '5' } },
  'bad-request': { status: 400, body: 'Bad Request: ask with exactly one ?domain=NAME\n' },
  method: { status: 405, body: 'Method Not Allowed\n', headers: { allow: 'GET, HEAD' } },
};

const MAX_WAITING = 256;

export function createTlsGate(options: TlsGateOptions): TlsGate {
  const now = options.now ?? Date.now;
  const maxWaitMs = options.maxWaitMs ?? 2_000;
  const wantFresh = options.askForFreshData ?? askForFreshData;
  let announcedAt = Number.NEGATIVE_INFINITY;
  /** Asks waiting for the next announcement: all answered together, by it or by the wait's end. */
  let waiters: (() => void)[] = [];
  const release = () => {
    const waiting = waiters;
    waiters = [];
    for (const resolve of waiting) resolve();
  };
  const domains = (options.domains ?? followCustomDomains)(() => {
    announcedAt = now();
    release();
  });
  const counts: TlsGateCounts = { allowed: 0, refused: 0 };
  // Announced names are normalized by the site; they are compared in the gate's own spelling.
  let seen: ReadonlySet<string> | null = null;
  let normalized: ReadonlySet<string> | null = null;
  const current = (): ReadonlySet<string> | null => {
    const latest = domains.current();
    if (latest !== seen) {
      seen = latest;
      normalized = latest === null ? null : allowedNames(latest);
    }
    return normalized;
  };

  /** Resolves once the names are current: at once, at the site's next announcement, or after the wait. */
  function currentEnough(): Promise<void> | null {
    // Past a bound, asks are answered from what is known rather than queued (a flood of asks).
    if (now() - announcedAt <= options.freshMs || waiters.length >= MAX_WAITING) return null;
    wantFresh();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, maxWaitMs);
      timer.unref();
      waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  function handle(request: IncomingMessage, response: ServerResponse): void {
    const waiting = request.method === 'GET' || request.method === 'HEAD' ? currentEnough() : null;
    if (waiting === null) return answer(request, response);
    waiting.then(() => {
      // A proxy that gave up waiting has nothing to be answered.
      if (!response.destroyed) answer(request, response);
    }, () => undefined);
  }

  function answer(request: IncomingMessage, response: ServerResponse): void {
    const url = request.url ?? '/';
    const queryAt = url.indexOf('?');
    const decision = request.method === 'GET' || request.method === 'HEAD'
      ? decideTls(queryAt === -1 ? '' : url.slice(queryAt + 1), current(), options.publicHostName)
      : 'method';
    if (decision === 'allowed') counts.allowed += 1;
    else if (decision === 'refused') counts.refused += 1;
    const reply = ANSWERS[decision];
    response.writeHead(reply.status, {
      'content-type': 'text/plain; charset=utf-8',
      'content-length': String(Buffer.byteLength(reply.body)),
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      ...reply.headers,
    });
    response.end(request.method === 'HEAD' ? undefined : reply.body);
  }

  return {
    matches: (url) => url === TLS_GATE_PATH || url.startsWith(`${TLS_GATE_PATH}?`),
    handle,
    counts,
    close: () => {
      domains.close();
      release();
    },
  };
}
