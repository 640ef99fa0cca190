/**
 * Who may reach the console at all, decided before any session is read: only on the site's main
 * host (never a page's custom domain: there it does not exist, 404), and over plain HTTP only
 * from loopback (a developer's machine) unless the operator opted in (CONSOLE_ALLOW_HTTP). With an
 * https SITE_PUBLIC_URL, TLS ends at the proxy in front, and the session cookie is `__Host-` and
 * Secure, so a browser never sends it over plain HTTP.
 */
import { isLoopbackAddress } from '../auth/session-cookie.ts';

export interface GateSettings {
  /** The site's public origin (SITE_PUBLIC_URL), or null: loopback names of the port only. */
  publicUrl: URL | null;
  /** The port the site listens on (for loopback names when publicUrl is null). */
  port: number;
  allowHttp: boolean;
}

export type GateVerdict = { ok: true; origin: string; secure: boolean } | { ok: false; status: 404 | 403 };

export function consoleGate(settings: GateSettings, host: string | undefined, remoteAddress: string | undefined): GateVerdict {
  const asked = (host ?? '').trim().toLowerCase();
  const loopback = isLoopbackAddress(remoteAddress);
  if (settings.publicUrl) {
    if (asked !== settings.publicUrl.host.toLowerCase()) return { ok: false, status: 404 };
    const https = settings.publicUrl.protocol === 'https:';
    if (!https && !loopback && !settings.allowHttp) return { ok: false, status: 403 };
    return { ok: true, origin: settings.publicUrl.origin, secure: https };
  }
  const names = new Set([`localhost:${settings.port}`, `127.0.0.1:${settings.port}`, `[::1]:${settings.port}`]);
  if (!names.has(asked)) return { ok: false, status: 404 };
  if (!loopback && !settings.allowHttp) return { ok: false, status: 403 };
  return { ok: true, origin: `http://${asked}`, secure: false };
}
