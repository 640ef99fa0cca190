/**
 * The session cookie: HttpOnly (no script reads it), SameSite=Strict (no other site's page sends
 * it), Secure with the `__Host-` prefix over HTTPS (the browser then refuses it over plain HTTP,
 * from a sub-domain, or with another Path or a Domain). Plain HTTP is only for loopback in
 * development: there the cookie cannot be Secure, so it carries neither Secure nor the prefix.
 */

export interface CookieOptions {
  /** The base name; over HTTPS it is sent as `__Host-<name>`. */
  name: string;
  /** Secure + `__Host-`; false only for plain HTTP on loopback. */
  secure: boolean;
  /** Seconds the browser keeps it (the session's absolute lifetime); omitted: until the browser closes. */
  maxAgeSeconds?: number;
  /** Path when not secure (a `__Host-` cookie is always Path=/). */
  path?: string;
}

const NAME = /^[A-Za-z0-9_-]{1,64}$/;
const VALUE = /^[A-Za-z0-9_.~-]{0,512}$/;

/** The cookie's name as the browser knows it. */
export function cookieName(options: Pick<CookieOptions, 'name' | 'secure'>): string {
  if (!NAME.test(options.name)) throw new TypeError(`cookie name ${JSON.stringify(options.name)}: letters, digits, - and _ only`);
  return options.secure ? `__Host-${options.name}` : options.name;
}

function attributes(options: CookieOptions): string[] {
  const path = options.secure ? '/' : (options.path ?? '/');
  if (!path.startsWith('/') || /[;\s]/.test(path)) throw new TypeError(`cookie path ${JSON.stringify(path)}: expected an absolute path`);
  return [`Path=${path}`, 'HttpOnly', 'SameSite=Strict', ...(options.secure ? ['Secure'] : [])];
}

/** A `Set-Cookie` value setting the cookie to `value`. */
export function serializeCookie(options: CookieOptions, value: string): string {
  if (!VALUE.test(value)) throw new TypeError('cookie value: unreserved URL characters only');
  const age = options.maxAgeSeconds === undefined ? [] : [`Max-Age=${Math.max(0, Math.floor(options.maxAgeSeconds))}`];
  return [`${cookieName(options)}=${value}`, ...age, ...attributes(options)].join('; ');
}

/** A `Set-Cookie` value removing the cookie. */
export function clearCookie(options: CookieOptions): string {
  return [`${cookieName(options)}=`, 'Max-Age=0', ...attributes(options)].join('; ');
}

/** The value of the cookie `name` (as the browser knows it) in a `Cookie` header, or null; a name sent twice is refused. */
export function readCookie(header: string | undefined, name: string): string | null {
  if (!header) return null;
  let found: string | null = null;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at < 0 || part.slice(0, at).trim() !== name) continue;
    // Two cookies of one name (one planted by a sub-domain, say): trust neither.
    if (found !== null) return null;
    found = part.slice(at + 1).trim();
  }
  return found;
}

const LOOPBACK_ADDRESS = /^(?:127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3})$/;

/**
 * Whether a connection's address is this machine (IPv4, IPv6, or IPv4 mapped into IPv6). One rule
 * for every part that names a cookie by it: the site, the subscriptions thread and the console
 * must agree on a session cookie's name.
 */
export function isLoopbackAddress(address: string | undefined): boolean {
  return address !== undefined && LOOPBACK_ADDRESS.test(address);
}

/**
 * Whether the cookie can be Secure: everywhere but a plain-HTTP request from loopback (a
 * developer's machine). `https`: the request reached Porchlight over TLS (or through a trusted
 * proxy that says so).
 */
export function cookieMustBeSecure(request: { https: boolean; loopback: boolean }): boolean {
  return request.https || !request.loopback;
}
