import type { Readable } from 'node:stream';

/** Body rules see at most this much of a response; a status check has no use for more. */
export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * Reads the body up to `limit` bytes and decodes it as UTF-8 (invalid bytes become U+FFFD).
 * The rest is discarded by destroying the stream, which closes the connection instead of
 * downloading an arbitrarily large body.
 */
export async function readCappedBody(body: Readable, limit: number = MAX_BODY_BYTES): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    const room = limit - size;
    chunks.push(room < buffer.length ? buffer.subarray(0, room) : buffer);
    size += Math.min(room, buffer.length);
    if (size >= limit) {
      body.destroy();
      break;
    }
  }
  return new TextDecoder('utf-8').decode(Buffer.concat(chunks));
}
