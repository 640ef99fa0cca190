/** The bytes of GET /api/v1/openapi.json: the generated document, built once on first request. */
import { openApiDocument } from '../../contract/openapi.ts';

let bytes: Buffer | null = null;

/** The same text `npm run openapi` writes to docs/openapi.json. */
export function openApiText(): string {
  return `${JSON.stringify(openApiDocument(), null, 2)}\n`;
}

export function openApiBytes(): Buffer {
  bytes ??= Buffer.from(openApiText(), 'utf8');
  return bytes;
}
