/**
 * The outcome of every HTTP request a thread sends to the API, from the diagnostics channels of
 * its HTTP clients (per thread: node:http's, which the API client uses, and undici's), relayed to
 * the main thread's metrics over a thread channel: the site asks the API from its worker thread,
 * the metrics are kept where they are served.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { announcer } from '../../site/data/thread-channel.ts';

export const API_REQUEST_EVENTS = 'porchlight:api-requests';

export interface ApiRequestEvent {
  origin: string;
  /** The status code, or 'error' when no answer came. */
  status: number | 'error';
}

type Status = number | 'error';

interface UndiciRequestMessage {
  request: { origin?: unknown };
  response?: { statusCode?: unknown };
}

interface NodeRequestMessage {
  request: { protocol?: unknown; getHeader?: (name: string) => unknown };
  response?: { statusCode?: unknown };
}

const statusOf = (response: { statusCode?: unknown } | undefined): Status => (typeof response?.statusCode === 'number' ? response.statusCode : 'error');

function undiciOrigin(message: unknown): string | null {
  const origin = (message as UndiciRequestMessage | null)?.request?.origin;
  return typeof origin === 'string' ? origin : null;
}

function nodeOrigin(message: unknown): string | null {
  const request = (message as NodeRequestMessage | null)?.request;
  const host = typeof request?.getHeader === 'function' ? request.getHeader('host') : undefined;
  return typeof request?.protocol === 'string' && typeof host === 'string' ? `${request.protocol}//${host}` : null;
}

/**
 * Starts relaying this thread's requests; returns the function that stops it. Only on the site's
 * thread, which alone asks the API: on the serving thread every pass-through would be an event.
 */
export function relayApiRequests(): () => void {
  const announce = announcer<ApiRequestEvent>(API_REQUEST_EVENTS);
  const relay = (originOf: (message: unknown) => string | null, status: (message: unknown) => Status) => (message: unknown) => {
    const origin = typeof message === 'object' && message !== null ? originOf(message) : null;
    if (origin !== null) announce({ origin, status: status(message) });
  };
  const handlers: [string, (message: unknown) => void][] = [
    ['undici:request:headers', relay(undiciOrigin, (message) => statusOf((message as UndiciRequestMessage).response))],
    ['undici:request:error', relay(undiciOrigin, () => 'error')],
    ['http.client.response.finish', relay(nodeOrigin, (message) => statusOf((message as NodeRequestMessage).response))],
    ['http.client.request.error', relay(nodeOrigin, () => 'error')],
  ];
  for (const [name, handler] of handlers) subscribe(name, handler);
  return () => {
    for (const [name, handler] of handlers) unsubscribe(name, handler);
  };
}
