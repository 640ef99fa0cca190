/** The bytes of GET /api/v1/openapi.json: the generated document, built once per body limit on first request. */
import { openApiDocument } from '../../contract/openapi.ts';
import { DEFAULT_MAX_BODY_BYTES } from './body.ts';

let built: { maxBodyBytes: number; bytes: Buffer } | null = null;

/** The document stating `maxBodyBytes` as the 413 limit; `npm run openapi` writes it with the default. */
export function openApiText(maxBodyBytes: number = DEFAULT_MAX_BODY_BYTES): string {
  return `${JSON.stringify(openApiDocument(undefined, { maxBodyBytes }), null, 2)}\n`;
}

export function openApiBytes(maxBodyBytes: number): Buffer {
  if (built?.maxBodyBytes !== maxBodyBytes) built = { maxBodyBytes, bytes: Buffer.from(openApiText(maxBodyBytes), 'utf8') };
  return built.bytes;
}
