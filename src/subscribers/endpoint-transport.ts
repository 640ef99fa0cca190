/**
 * POSTs one JSON body to a receiver through the egress policy: no redirect followed, a
 * per-request deadline (connect, headers and body together), the answer's body read and dropped
 * (at most 64 KiB are waited for). Answers what happened, never throws.
 */
import { request, type Dispatcher } from 'undici';
import { EndpointEgressError } from './endpoint-egress.ts';
import type { Answer } from './delivery-policy.ts';

export interface EndpointPost {
  url: string;
  body: string;
  headers: Record<string, string>;
}

export type EndpointSend = (post: EndpointPost) => Promise<Answer>;

function causeChain(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let at: unknown = error; at !== undefined && at !== null && chain.length < 5; at = (at as { cause?: unknown }).cause) chain.push(at);
  return chain;
}

export function endpointSender(dispatcher: Dispatcher, timeoutMs: number, userAgent: string): EndpointSend {
  return async (post) => {
    try {
      const response = await request(post.url, {
        method: 'POST',
        body: post.body,
        headers: { 'content-type': 'application/json', 'user-agent': userAgent, ...post.headers },
        dispatcher,
        signal: AbortSignal.timeout(timeoutMs),
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      const header = response.headers['retry-after'];
      const retryAfter = Array.isArray(header) ? (header[0] ?? null) : (header ?? null);
      // Drained so the connection can be reused; a huge answer is cut off.
      let read = 0;
      try {
        for await (const chunk of response.body) {
          read += (chunk as Buffer).length;
          if (read > 64 * 1024) {
            response.body.destroy();
            break;
          }
        }
      } catch {
        // The status is what counts.
      }
      return { status: response.statusCode, retryAfter };
    } catch (error) {
      const chain = causeChain(error);
      if (chain.some((entry) => entry instanceof EndpointEgressError)) {
        const egress = chain.find((entry) => entry instanceof EndpointEgressError) as EndpointEgressError;
        return { error: egress.reason === 'refused' ? 'refused' : 'connection' };
      }
      const timedOut = chain.some((entry) => entry instanceof Error && (entry.name === 'TimeoutError' || entry.name === 'AbortError' || /Timeout/i.test((entry as { code?: string }).code ?? '')));
      return { error: timedOut ? 'timeout' : 'connection' };
    }
  };
}
