import type { IncomingMessage } from 'node:http';
import { InvalidJsonError, PayloadTooLargeError, UnsupportedMediaTypeError } from './errors.ts';

/** Default body limit: 1 MiB. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

function declaresBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  if (length !== undefined) return Number(length) > 0;
  return req.headers['transfer-encoding'] !== undefined;
}

function isJsonMediaType(contentType: string | undefined): boolean {
  const mediaType = contentType?.split(';')[0]?.trim().toLowerCase();
  return mediaType === 'application/json';
}

/**
 * The client went away before its request body was complete: nobody is left to answer, and it is
 * not the service's failure (logged at debug level, never as an internal error).
 */
export class ClientAbortError extends Error {
  constructor() {
    super('client closed the connection before sending the whole request body');
    this.name = 'ClientAbortError';
  }
}

function readRaw(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = (): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.byteLength;
      if (size > maxBytes) {
        cleanup();
        // Keep draining (discarding) so the client can read the 413 before the connection closes.
        req.resume();
        reject(new PayloadTooLargeError(maxBytes));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      cleanup();
      resolve(Buffer.concat(chunks));
    };
    // A socket reset mid-body surfaces as an 'error' ("aborted", ECONNRESET) or only as a 'close'.
    const onError = (): void => {
      cleanup();
      reject(new ClientAbortError());
    };
    const onClose = (): void => {
      if (req.complete) return;
      cleanup();
      reject(new ClientAbortError());
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}

/**
 * Reads a JSON request body. Returns undefined when none was sent (the route's schema then rejects it).
 * 415 when a body comes without application/json, 413 beyond `maxBytes`, 400 invalid_json when unparsable.
 */
export async function readJsonBody(req: IncomingMessage, maxBytes: number): Promise<unknown> {
  if (!declaresBody(req)) return undefined;
  if (!isJsonMediaType(req.headers['content-type'])) throw new UnsupportedMediaTypeError();
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) throw new PayloadTooLargeError(maxBytes);
  const raw = await readRaw(req, maxBytes);
  const text = raw.toString('utf8');
  if (text.trim() === '') return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed;
  } catch {
    throw new InvalidJsonError();
  }
}
