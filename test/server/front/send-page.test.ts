import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { renderedPage } from '../../../src/server/front/rendered-page.ts';
import { sendPage } from '../../../src/server/front/send-page.ts';

interface Written {
  status?: number;
  headers?: Record<string, string>;
  body?: Buffer | undefined;
}

function exchange(headers: Record<string, string>, method = 'GET'): { request: IncomingMessage; response: ServerResponse; written: Written } {
  const written: Written = {};
  const response = {
    writeHead(status: number, sent: Record<string, string>) {
      written.status = status;
      written.headers = sent;
      return this;
    },
    end(body?: Buffer) {
      written.body = body;
    },
  } as unknown as ServerResponse;
  return { request: { method, headers } as IncomingMessage, response, written };
}

const page = () => renderedPage(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'public, max-age=30' }, Buffer.from('<p>hello</p>'.repeat(100)), () => 1_000_000);

describe('a stored page to one visitor', () => {
  it('goes out in the coding the client accepts, with no age while fresh', async () => {
    const stored = await page();
    const { request, response, written } = exchange({ 'accept-encoding': 'br, gzip' });
    sendPage(request, response, stored, 1_002_000, 5_000);
    expect(written.status).toBe(200);
    expect(written.headers?.['content-encoding']).toBe('br');
    expect(written.headers?.age).toBeUndefined();
    expect(written.body).toBe(stored.variants.br.body);
  });

  it('is a 304 when If-None-Match names it, and headers only for HEAD', async () => {
    const stored = await page();
    const matching = exchange({ 'if-none-match': stored.variants.identity.headers.etag ?? '' });
    sendPage(matching.request, matching.response, stored, 1_000_000, 5_000);
    expect([matching.written.status, matching.written.body]).toEqual([304, undefined]);
    const head = exchange({}, 'HEAD');
    sendPage(head.request, head.response, stored, 1_000_000, 5_000);
    expect([head.written.status, head.written.body]).toEqual([200, undefined]);
  });

  it('tells its age once kept past its freshness (a failing re-render)', async () => {
    const stored = await page();
    const { request, response, written } = exchange({});
    sendPage(request, response, stored, 1_000_000 + 65_400, 5_000);
    expect(written.headers?.age).toBe('65');
  });
});
