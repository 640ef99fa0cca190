/**
 * List envelopes and offset pagination: decoding one page item by item, and walking every
 * page of a list as an async iterator.
 */
import { rawListEnvelopeSchema, type Pagination } from '../contract/index.ts';
import type { Codec, InvalidItemHandler } from './codec.ts';
import { InvalidResponseError, type RequestLabel } from './errors.ts';
import { summariseIssues } from './issues.ts';

export interface Page<T> {
  data: T[];
  pagination: Pagination;
}

export interface DecodedPage<T> {
  page: Page<T>;
  /** Items the server sent, valid or not: the offset advances by this, not by `data.length`. */
  rawCount: number;
}

export function decodePage<T>(
  codec: Codec<T>,
  body: unknown,
  context: { label: RequestLabel; status: number; offset: number; onInvalidItem: InvalidItemHandler },
): DecodedPage<T> {
  const envelope = rawListEnvelopeSchema.safeParse(body);
  if (!envelope.success) {
    throw new InvalidResponseError(context.label, context.status, summariseIssues(envelope.error.issues));
  }
  const raw = envelope.data.data;
  const data: T[] = [];
  raw.forEach((item, index) => {
    const decoded = codec.decode(item, ['data', index], context.onInvalidItem);
    if (decoded.ok) data.push(decoded.value);
    else context.onInvalidItem(codec.resource, index, decoded.summary);
  });
  // Lists that come back unpaginated are complete by definition.
  const pagination = envelope.data.pagination ?? { total: raw.length, limit: raw.length, offset: context.offset, hasMore: false };
  return { page: { data, pagination }, rawCount: raw.length };
}

export type PageFetcher<T> = (offset: number) => Promise<DecodedPage<T>>;

/**
 * Yields every item of every page, following offsets until the server says there is no more.
 * Also stops on an empty page, at `total`, or when the server does not honour the offset
 * (it would otherwise serve the first page forever).
 */
export async function* walkPages<T>(fetchPage: PageFetcher<T>, warn: (message: string) => void): AsyncGenerator<T> {
  let offset = 0;
  for (;;) {
    const { page, rawCount } = await fetchPage(offset);
    if (page.pagination.offset !== offset) {
      warn(`pagination stopped: asked for offset ${offset}, got ${page.pagination.offset}`);
      return;
    }
    yield* page.data;
    offset += rawCount;
    if (!page.pagination.hasMore || rawCount === 0 || offset >= page.pagination.total) return;
  }
}
