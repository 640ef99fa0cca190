/**
 * Requests to the site on its internal loopback port, exactly as the front server makes them but
 * with the exporter's own headers: the Host of the tree being exported (main host or a page's
 * custom domain) and, when the folder will be served below a path, that base path.
 */
import { Pool } from 'undici';
import { BASE_PATH_HEADER, EXPORT_HEADER } from '../site/view/internal-request.ts';
import type { TreeAddress } from './links.ts';

export interface SiteResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export interface SiteClient {
  get(path: string, tree: TreeAddress): Promise<SiteResponse>;
  close(): Promise<void>;
}

/** Larger answers are refused rather than held in memory (the front cache's limit too). */
const MAX_BYTES = 8 * 1024 * 1024;

export function siteClient(origin: string): SiteClient {
  const pool = new Pool(origin, { connections: 4, headersTimeout: 60_000, bodyTimeout: 60_000 });
  return {
    async get(path, tree) {
      const headers: Record<string, string> = {
        host: tree.host,
        accept: '*/*',
        'accept-encoding': 'identity',
        'user-agent': 'porchlight-export',
        [EXPORT_HEADER]: '1',
      };
      if (tree.basePath) headers[BASE_PATH_HEADER] = tree.basePath;
      const response = await pool.request({ method: 'GET', path, headers });
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of response.body) {
        const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
        size += buffer.length;
        if (size > MAX_BYTES) {
          response.body.destroy();
          throw new Error(`${path} is larger than ${MAX_BYTES} bytes`);
        }
        chunks.push(buffer);
      }
      const flat: Record<string, string> = {};
      for (const [name, value] of Object.entries(response.headers)) {
        if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
      }
      return { status: response.statusCode, headers: flat, body: Buffer.concat(chunks) };
    },
    close: () => pool.close(),
  };
}
