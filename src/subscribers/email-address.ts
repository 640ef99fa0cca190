/**
 * The strict e-mail syntax subscriptions accept: an ASCII dot-atom local part (RFC 5321/5322,
 * no quoted strings, no comments) at a domain of LDH labels with at least one dot. Anything that
 * could split a header (CR, LF, commas, angle brackets, spaces) or smuggle a second recipient is
 * outside this syntax, so an accepted address is safe in a To: header as it is.
 */

/** RFC 5321 4.5.3.1: 64 octets of local part, 254 of the whole path. */
const MAX_LOCAL = 64;
const MAX_TOTAL = 254;

const LOCAL_PART = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;

export interface EmailAddress {
  /** As given (trimmed), the domain lower-cased: what mails are addressed to. */
  address: string;
  /** The whole address lower-cased: one subscription per page and key, whatever the case. */
  key: string;
}

export function parseEmailAddress(input: unknown): EmailAddress | null {
  if (typeof input !== 'string') return null;
  const trimmed = input.trim();
  if (trimmed.length === 0 || trimmed.length > MAX_TOTAL) return null;
  const at = trimmed.lastIndexOf('@');
  if (at <= 0 || at === trimmed.length - 1) return null;
  const local = trimmed.slice(0, at);
  const domain = trimmed.slice(at + 1).toLowerCase();
  if (local.length > MAX_LOCAL || !LOCAL_PART.test(local)) return null;
  const labels = domain.split('.');
  if (labels.length < 2 || !labels.every((label) => LABEL.test(label))) return null;
  // A top-level label of digits only is an IP address in disguise, not a mail domain.
  if (/^\d+$/.test(labels[labels.length - 1] ?? '')) return null;
  const address = `${local}@${domain}`;
  return { address, key: address.toLowerCase() };
}
