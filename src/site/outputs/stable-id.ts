/**
 * Identifiers of feed entries and calendar events that never change for the same thing: a
 * name-based UUID (RFC 9562 version 5, SHA-1) of the organization and the record. They do not
 * depend on the host a feed was read from (slug URL, custom domain, SITE_PUBLIC_URL), so a reader
 * that follows the page under another address sees the same entries, not new ones.
 */
import { createHash } from 'node:crypto';

/** Porchlight's own namespace; changing it would make every reader see every entry as new. */
const NAMESPACE = 'faa31709-f7fe-4c96-88fd-e8ce405e50a9';

function uuidBytes(uuid: string): Buffer {
  return Buffer.from(uuid.replaceAll('-', ''), 'hex');
}

/** RFC 9562 version 5 UUID of `name` in `namespace`. */
export function uuidV5(name: string, namespace: string = NAMESPACE): string {
  const hash = createHash('sha1').update(uuidBytes(namespace)).update(name, 'utf8').digest();
  const bytes = hash.subarray(0, 16);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x50;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * The stable UUID of one record: `scope` is the organization id, `kind` what the record is
 * ('incident', 'maintenance', 'page'), `id` its id in the API. The name is a JSON array, so no
 * choice of ids can make two different records share a name.
 */
export function recordUuid(scope: string, kind: string, id: string): string {
  return uuidV5(JSON.stringify([scope, kind, id]));
}

/** The scope of a page's ids: its organization; the page itself only if the organization is unknown. */
export function idScope(organizationId: string | null | undefined, pageId: string): string {
  return organizationId ?? `page:${pageId}`;
}
