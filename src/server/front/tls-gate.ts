/**
 * The gate a TLS-terminating proxy asks before it obtains a certificate on demand
 * (Caddy's `on_demand_tls { ask … }`): `GET /_porchlight/tls-allowed?domain=NAME` answers 200
 * only for the custom domain of a public page in the site's current data, or the main host of
 * SITE_PUBLIC_URL; every other name gets the same 404, whatever the reason, so the gate tells a
 * prober nothing the DNS does not. Answered on the serving thread from the names the site
 * announces after each load or restored snapshot (site/data/custom-domains.ts): no API call per
 * ask, no render, and renewals keep working while the API is down.
 *
 * The site reads its pages list at least every CACHE_FRESH_SECONDS (and at once on a page change
 * pushed by the embedded API), so a page made non-public is refused within that time. A name the
 * names do not hold is the same ask as a visitor's for an unknown slug (site/data/pages-freshness.ts:
 * one read per 10 s for all of them): the gate asks the site and waits briefly for its next
 * announcement, so a domain added a moment ago gets its certificate on the first ask.
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
  /**
   * The one ask about a name the site's data does not hold (shared with unknown slugs, one pages
   * read per 10 s for all): resolves at the site's next announcement or after the wait. Null when
   * the name is known, cannot be a page's custom domain, was asked about in the last 10 s, or past
   * the bound of waiting asks. The front asks it for a plain-HTTP Host it would answer as the main host.
   */
  askAbout(name: string): Promise<void> | null;
  readonly counts: TlsGateCounts;
  close(): void;
}

export interface TlsGateOptions {
  /** SITE_PUBLIC_URL's host name, if set: the main host gets its certificate through the gate too. */
  publicHostName: string | null;
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
/** A name asked about stays unknown for this long without another ask (the site reads at most this often for them anyway). */
const ASKED_AGAIN_AFTER_MS = 10_000;
const MAX_REMEMBERED = 1_024;

/** A name that could be a page's custom domain: dotted, with a top-level label that is not a number (no IP literals). */
export function mayBeCustomDomain(name: string): boolean {
  const dot = name.lastIndexOf('.');
  return dot > 0 && !/^\d+$/.test(name.slice(dot + 1));
}

export function createTlsGate(options: TlsGateOptions): TlsGate {
  const maxWaitMs = options.maxWaitMs ?? 2_000;
  const wantFresh = options.askForFreshData ?? (() => askForFreshData('pages'));
  /** An ask for the pages list was sent and no announcement came since: later refusals wait for it too. */
  let asked = false;
  /** Asks waiting for the next announcement: all answered together, by it or by the wait's end. */
  let waiters: (() => void)[] = [];
  const release = () => {
    const waiting = waiters;
    waiters = [];
    for (const resolve of waiting) resolve();
  };
  const domains = (options.domains ?? followCustomDomains)(() => {
    asked = false;
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

  /**
   * For a name the announced names do not hold: resolves at the site's next announcement (the
   * site answers every ask with one, after its read or at once when none may start) or after the
   * wait. Null when the name is known, or past a bound of waiting asks (a flood of them).
   */
  function askedAgain(request: IncomingMessage): Promise<void> | null {
    if (request.method !== 'GET' && request.method !== 'HEAD') return null;
    if (decisionFor(request) !== 'refused' || waiters.length >= MAX_WAITING) return null;
    return ask();
  }

  /** Names asked about from the front lately, with when they may be asked about again. */
  const askedLately = new Map<string, number>();
  function askAbout(name: string): Promise<void> | null {
    if (!mayBeCustomDomain(name) || decideName(name, current(), options.publicHostName) !== 'refused' || waiters.length >= MAX_WAITING) return null;
    const at = (options.now ?? Date.now)();
    if ((askedLately.get(name) ?? 0) > at) return null;
    if (askedLately.size >= MAX_REMEMBERED) askedLately.clear();
    askedLately.set(name, at + ASKED_AGAIN_AFTER_MS);
    return ask();
  }

  function ask(): Promise<void> {
    // One ask in flight at a time: the refusals meanwhile wait for its answer.
    if (!asked) {
      asked = true;
      wantFresh();
    }
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        // No answer (the site's thread busy or gone): the next refusal asks again.
        asked = false;
        resolve();
      }, maxWaitMs);
      timer.unref();
      waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  function decisionFor(request: IncomingMessage): TlsDecision {
    const url = request.url ?? '/';
    const queryAt = url.indexOf('?');
    return decideTls(queryAt === -1 ? '' : url.slice(queryAt + 1), current(), options.publicHostName);
  }

  function handle(request: IncomingMessage, response: ServerResponse): void {
    const waiting = askedAgain(request);
    if (waiting === null) return answer(request, response);
    waiting.then(() => {
      // A proxy that gave up waiting has nothing to be answered.
      if (!response.destroyed) answer(request, response);
    }, () => undefined);
  }

  function answer(request: IncomingMessage, response: ServerResponse): void {
    const decision = request.method === 'GET' || request.method === 'HEAD' ? decisionFor(request) : 'method';
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
    askAbout,
    counts,
    close: () => {
      domains.close();
      release();
    },
  };
}
