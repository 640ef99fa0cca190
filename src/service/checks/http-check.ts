import { request, type Dispatcher } from 'undici';
import type { Rule } from '../../contract/monitor.ts';
import { CheckFailure } from './check-failure.ts';
import { elapsedMs, type CheckOutcome } from './check-types.ts';
import { describeNetworkError, timeoutMessage } from './describe-network-error.ts';
import { evaluateHttpResponse } from './evaluate-rules.ts';
import { nextRedirect, type HttpRequestPlan } from './http-redirect.ts';
import { readCappedBody } from './read-capped-body.ts';

export const DEFAULT_MAX_REDIRECTS = 5;
const USER_AGENT = 'Porchlight-Monitor/1.0';

export interface HttpCheckInput {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | null;
  timeoutSeconds: number;
  rules: readonly Rule[];
}

export interface HttpCheckOptions {
  dispatcher?: Dispatcher | undefined;
  maxRedirects?: number | undefined;
}

function initialPlan(input: HttpCheckInput): HttpRequestPlan {
  let url: URL;
  try {
    url = new URL(input.url);
  } catch {
    throw new CheckFailure('invalid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new CheckFailure(`unsupported protocol ${url.protocol}`);
  const headers = { ...input.headers };
  if (!Object.keys(headers).some((name) => name.toLowerCase() === 'user-agent')) headers['user-agent'] = USER_AGENT;
  return { url, method: input.method.toUpperCase(), headers, body: input.body };
}

function definedHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string | string[]> {
  const result: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) result[name] = value;
  }
  return result;
}

/**
 * Header values and URL credentials may be secrets; they are scrubbed from any error text
 * (longest first, so a value containing another is removed whole). Values under 3 characters
 * are skipped: they hold no secret and scrubbing them would garble the message.
 */
function secretsOf(input: HttpCheckInput): string[] {
  const secrets = Object.values(input.headers);
  if (URL.canParse(input.url)) {
    const url = new URL(input.url);
    secrets.push(url.password, url.username);
  }
  return secrets.filter((secret) => secret.length >= 3).sort((a, b) => b.length - a.length);
}

/**
 * Runs one HTTP check. The timeout covers the whole check (every redirect hop and the body),
 * enforced by an AbortSignal, with undici's headers/body timeouts as a second line.
 * Each request uses a fresh connection (`reset: true`) so latency includes connect and TLS,
 * as a visitor arriving cold would see it, and a dead listener is never masked by a pooled socket.
 */
export async function httpCheck(input: HttpCheckInput, options: HttpCheckOptions = {}): Promise<CheckOutcome> {
  const start = performance.now();
  const timeoutMs = input.timeoutSeconds * 1000;
  const maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new CheckFailure(timeoutMessage(input.timeoutSeconds))), timeoutMs);
  const wantsBody = input.rules.some((rule) => rule.type === 'body');
  let lastStatus: number | null = null;

  try {
    let plan = initialPlan(input);
    const visited = new Set<string>([`${plan.method} ${plan.url.href}`]);
    for (let redirects = 0; ; redirects++) {
      const response = await request(plan.url, {
        method: plan.method,
        headers: plan.headers,
        body: plan.body,
        signal: controller.signal,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        reset: true,
        ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
      });
      lastStatus = response.statusCode;
      const next = nextRedirect(plan, response.statusCode, response.headers['location']);
      if (next === null) {
        const latencyMs = elapsedMs(start);
        let body = '';
        if (wantsBody) body = await readCappedBody(response.body);
        else await response.body.dump();
        // dump() swallows an abort; a body that outlived the timeout still fails the check.
        if (controller.signal.aborted) throw new CheckFailure(timeoutMessage(input.timeoutSeconds));
        const verdict = evaluateHttpResponse(input.rules, {
          statusCode: response.statusCode,
          latencyMs,
          headers: definedHeaders(response.headers),
          body,
        });
        return {
          status: verdict.passed ? 'up' : 'down',
          latencyMs,
          statusCode: response.statusCode,
          error: verdict.passed ? null : verdict.failures.join('; '),
        };
      }
      await response.body.dump();
      if (redirects >= maxRedirects) throw new CheckFailure(`too many redirects (more than ${maxRedirects})`);
      const key = `${next.method} ${next.url.href}`;
      if (visited.has(key)) throw new CheckFailure(`redirect loop detected after ${redirects + 1} redirects`);
      visited.add(key);
      plan = next;
    }
  } catch (err) {
    const error = controller.signal.aborted
      ? timeoutMessage(input.timeoutSeconds)
      : describeNetworkError(err, input.timeoutSeconds, secretsOf(input));
    return { status: 'down', latencyMs: elapsedMs(start), statusCode: lastStatus, error };
  } finally {
    clearTimeout(timer);
  }
}
