/**
 * The route the API's chat webhook posts to: `POST /_porchlight/push/<token>`. Answered by the
 * front server before anything is rendered. A wrong token, another method, or push switched off
 * is a plain 404 that costs a comparison; the right token drains a size-capped body unread (the
 * payload is only a hint: never parsed, rendered or trusted) and asks the site to refresh.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PORCHLIGHT_PUSH_PATH } from '../../contract/porchlight-push.ts';

export const PUSH_PATH = PORCHLIGHT_PUSH_PATH;
/** Chat messages are a few kilobytes (Slack caps a section at 3000 characters). */
export const MAX_PUSH_BODY_BYTES = 64 * 1024;

export interface PushCounts {
  accepted: number;
  refused: number;
  tooLarge: number;
}

export interface PushReceiver {
  /** Whether the request is for the push route (all of it, whatever the token). */
  matches(url: string): boolean;
  handle(request: IncomingMessage, response: ServerResponse): void;
  readonly counts: PushCounts;
}

export interface PushReceiverOptions {
  /** Null: push is off and the route answers 404 like any wrong token. */
  token: string | null;
  /** `kind`: the event the API named in X-Porchlight-Event, when it looks like one (a hint, for logs). */
  onPush: (kind: string | null) => void;
  maxBodyBytes?: number;
}

const EVENT_NAME = /^on[A-Za-z]{1,40}$/;

const digest = (value: string): Buffer => createHash('sha256').update(value).digest();

function answer(response: ServerResponse, status: number, text: string, close: boolean): void {
  const headers: Record<string, string> = { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' };
  // A body we will not read is not worth receiving: the connection ends with the answer.
  if (close) headers.connection = 'close';
  response.writeHead(status, headers);
  response.end(text);
}

function hasBody(request: IncomingMessage): boolean {
  return request.headers['transfer-encoding'] !== undefined || Number(request.headers['content-length'] ?? 0) > 0;
}

export function createPushReceiver(options: PushReceiverOptions): PushReceiver {
  const maxBodyBytes = options.maxBodyBytes ?? MAX_PUSH_BODY_BYTES;
  // Compared as fixed-length digests in constant time: neither the content nor the length leaks.
  const expected = options.token === null ? null : digest(options.token);
  const counts: PushCounts = { accepted: 0, refused: 0, tooLarge: 0 };

  function tokenMatches(url: string): boolean {
    if (expected === null) return false;
    const queryAt = url.indexOf('?');
    const candidate = url.slice(PUSH_PATH.length, queryAt === -1 ? undefined : queryAt);
    return timingSafeEqual(digest(candidate), expected);
  }

  function refuse(request: IncomingMessage, response: ServerResponse): void {
    counts.refused += 1;
    answer(response, 404, 'Not Found\n', hasBody(request));
  }

  function tooLarge(response: ServerResponse): void {
    counts.tooLarge += 1;
    answer(response, 413, 'Payload Too Large\n', true);
  }

  function handle(request: IncomingMessage, response: ServerResponse): void {
    const url = request.url ?? '/';
    if (request.method !== 'POST' || !tokenMatches(url)) return refuse(request, response);
    if (Number(request.headers['content-length'] ?? 0) > maxBodyBytes) return tooLarge(response);
    let size = 0;
    let done = false;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBodyBytes && !done) {
        done = true;
        request.pause();
        tooLarge(response);
      }
    });
    request.on('end', () => {
      if (done) return;
      done = true;
      counts.accepted += 1;
      answer(response, 202, 'Accepted\n', false);
      const kind = request.headers['x-porchlight-event'];
      options.onPush(typeof kind === 'string' && EVENT_NAME.test(kind) ? kind : null);
    });
    request.on('error', () => {
      done = true;
    });
  }

  return { matches: (url) => url.startsWith(PUSH_PATH), handle, counts };
}
