/**
 * Headers that describe one connection, not the message (RFC 9110 7.6.1): never forwarded
 * between the visitor's connection and the site's. undici refuses several of them outright.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { INTERNAL_HEADERS } from '../../site/view/internal-request.ts';

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'expect',
  'http2-settings',
  'host',
  // Not hop-by-hop, but only the static exporter may send them to the site (a base path, its index).
  ...INTERNAL_HEADERS,
]);

/** The request headers worth passing on, without hop-by-hop ones and those Connection names. */
export function forwardableHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const named = String(headers.connection ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
  const forwarded: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name) || named.includes(name)) continue;
    forwarded[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return forwarded;
}
