/** Content negotiation and validators of cached pages: pure functions of header values. */

export type Coding = 'br' | 'gzip' | 'identity';

const negotiated = new Map<string, Coding>();
const MAX_REMEMBERED = 256;

/**
 * Brotli, then gzip, when the client accepts them (q=0 refuses); identity otherwise.
 * Clients send a handful of distinct headers, so answers are remembered (bounded).
 */
export function negotiateCoding(acceptEncoding: string | string[] | undefined): Coding {
  const header = Array.isArray(acceptEncoding) ? acceptEncoding.join(',') : acceptEncoding ?? '';
  const known = negotiated.get(header);
  if (known) return known;
  const coding = parseAcceptEncoding(header);
  if (negotiated.size >= MAX_REMEMBERED) negotiated.clear();
  negotiated.set(header, coding);
  return coding;
}

function parseAcceptEncoding(header: string): Coding {
  const accepted = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((param) => param.trim()).find((param) => param.startsWith('q='));
    const weight = q ? Number(q.slice(2)) : 1;
    accepted.set(name, Number.isFinite(weight) ? weight : 0);
  }
  const weight = (coding: string) => accepted.get(coding) ?? (accepted.has('*') ? accepted.get('*')! : 0);
  if (weight('br') > 0) return 'br';
  if (weight('gzip') > 0) return 'gzip';
  return 'identity';
}

/** Strong validator of one representation: each content coding is a different one (RFC 9110 8.8.3). */
export function etagFor(bodyHash: string, coding: Coding): string {
  return coding === 'identity' ? `"${bodyHash}"` : `"${bodyHash}-${coding}"`;
}

/** If-None-Match against the page's validators (weak comparison, as RFC 9110 13.1.2 asks). */
export function matchesIfNoneMatch(ifNoneMatch: string | undefined, bodyHash: string): boolean {
  if (!ifNoneMatch) return false;
  const tags = ifNoneMatch.split(',').map((tag) => tag.trim().replace(/^W\//, ''));
  if (tags.includes('*')) return true;
  return (['identity', 'gzip', 'br'] as const).some((coding) => tags.includes(etagFor(bodyHash, coding)));
}
