/**
 * Whether push updates can work and at which address the API reaches the push route (the channel
 * itself is kept by push-keeper.ts, on the site's thread).
 */
import type { AddressInfo } from 'node:net';
import { PUSH_PATH } from './push-receiver.ts';

/** The channel's name: one per site address, so two sites of one organization keep their own. */
export function pushChannelName(publicUrl: string | null): string {
  return publicUrl ? `Porchlight live updates (${new URL(publicUrl).host})` : 'Porchlight live updates';
}

export type PushPlan =
  /** `publicUrl` null: the API posts over loopback. */
  | { on: true; publicUrl: string | null; name: string }
  | { on: false; reason: string };

/**
 * The embedded API posts over loopback; an external one needs SITE_PUBLIC_URL, the address at
 * which it can reach this site. Without it, freshness stays polling-only. Several replicas on one
 * DATABASE_URL (`shared`) share one embedded API's store, so one channel: with SITE_PUBLIC_URL it
 * points at the balancer, named after its host, and every replica keeps the same channel instead
 * of taking it over with its own loopback address (a channel at a replica that dies would go
 * silent). The push reaches one replica; the fan-out (server/fanout/) tells the others.
 */
export function planPush(options: { enabled: boolean; embedded: boolean; publicUrl: string | null; shared?: boolean }): PushPlan {
  if (!options.enabled) return { on: false, reason: 'PUSH_UPDATES=false' };
  if (options.embedded && !(options.shared && options.publicUrl)) return { on: true, publicUrl: null, name: pushChannelName(null) };
  if (options.publicUrl) return { on: true, publicUrl: options.publicUrl, name: pushChannelName(options.publicUrl) };
  return { on: false, reason: 'SITE_PUBLIC_URL is not set, so the external API cannot reach this site: data freshness is polling-only' };
}

/** How a process on this machine reaches a server listening at `address`. */
export function loopbackOrigin(address: AddressInfo): string {
  const wildcard = address.address === '0.0.0.0' || address.address === '::' || address.address === '';
  if (wildcard || address.family === 'IPv4') return `http://${wildcard ? '127.0.0.1' : address.address}:${address.port}`;
  // A bracketed IPv6 literal is not a host name the API accepts in a webhook URL.
  return `http://localhost:${address.port}`;
}

export function pushUrl(origin: string, token: string): string {
  return `${origin.replace(/\/+$/, '')}${PUSH_PATH}${token}`;
}
