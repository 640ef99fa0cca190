/**
 * The outcome of every HTTP request a thread sends (from undici's own diagnostics channels, which
 * are per thread), relayed to the main thread's metrics over a thread channel: the site asks the
 * API from its worker thread, the metrics are kept where they are served.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { announcer } from '../../site/data/thread-channel.ts';

export const API_REQUEST_EVENTS = 'porchlight:api-requests';

export interface ApiRequestEvent {
  origin: string;
  /** The status code, or 'error' when no answer came. */
  status: number | 'error';
}

interface UndiciRequestMessage {
  request: { origin?: unknown };
  response?: { statusCode?: unknown };
}

function isUndiciMessage(message: unknown): message is UndiciRequestMessage {
  return typeof message === 'object' && message !== null && 'request' in message;
}

/** Starts relaying this thread's requests; returns the function that stops it. */
export function relayApiRequests(): () => void {
  const announce = announcer<ApiRequestEvent>(API_REQUEST_EVENTS);
  const post = (message: unknown, status: (message: UndiciRequestMessage) => number | 'error') => {
    if (!isUndiciMessage(message) || typeof message.request.origin !== 'string') return;
    announce({ origin: message.request.origin, status: status(message) });
  };
  const onHeaders = (message: unknown) => post(message, (known) => (typeof known.response?.statusCode === 'number' ? known.response.statusCode : 'error'));
  const onError = (message: unknown) => post(message, () => 'error');
  subscribe('undici:request:headers', onHeaders);
  subscribe('undici:request:error', onError);
  return () => {
    unsubscribe('undici:request:headers', onHeaders);
    unsubscribe('undici:request:error', onError);
  };
}
