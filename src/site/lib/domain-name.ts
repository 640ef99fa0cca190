/**
 * Domain names as the TLS gate compares them: one spelling per name, so `Status.Acme.com.`,
 * `status.acme.com` and a Unicode name and its punycode form are the same name, and anything
 * that is not a plain name (a port, a path, credentials, spaces) is no name at all. A gate that
 * answered "yes" for `status.acme.com/x` or `evil.test#status.acme.com` would let a proxy issue a
 * certificate for a name nobody configured.
 */
import { domainToASCII } from 'node:url';

/** RFC 1035 lengths: 253 characters in all (without the root dot), 63 per label. */
const MAX_NAME_LENGTH = 253;
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
/** Only letters (any script), digits, hyphens and dots may come in: no `:/?#@%\[]` or spaces. */
const NAME_CHARACTERS = /^[\p{L}\p{M}\p{N}.-]+$/u;
const NON_ASCII = /[^\x00-\x7f]/;

/** The ASCII (punycode) form of a name, lower-cased, without a trailing dot; null when it is none. */
export function normalizeDomainName(input: string | null | undefined): string | null {
  if (!input) return null;
  const trimmed = input.trim();
  if (!NAME_CHARACTERS.test(trimmed)) return null;
  const withoutRoot = trimmed.endsWith('.') ? trimmed.slice(0, -1) : trimmed;
  const ascii = NON_ASCII.test(withoutRoot) ? domainToASCII(withoutRoot) : withoutRoot.toLowerCase();
  if (!ascii || ascii.length > MAX_NAME_LENGTH) return null;
  return ascii.split('.').every((label) => LABEL.test(label)) ? ascii : null;
}

/** A name's ASCII form when it has non-ASCII letters, else the name as it is (the hot path). */
export function asciiName(name: string): string {
  return NON_ASCII.test(name) ? domainToASCII(name) || name : name;
}
