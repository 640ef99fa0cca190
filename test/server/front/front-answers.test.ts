import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { failRequest, sendGateAnswer } from '../../../src/server/front/front-answers.ts';

function response(headersSent = false) {
  const written: { status?: number; headers?: Record<string, string>; body?: unknown; destroyed: boolean } = { destroyed: false };
  const fake = {
    headersSent,
    destroyed: false,
    writeHead(status: number, headers: Record<string, string>) {
      written.status = status;
      written.headers = headers;
    },
    end(body?: unknown) {
      written.body = body;
    },
    destroy() {
      written.destroyed = true;
    },
  };
  return { response: fake as unknown as ServerResponse, written };
}

const request = (method = 'GET', destroyed = false) => ({ method, destroyed }) as IncomingMessage;

describe("the front's own answers", () => {
  it('gives a gate answer its length, and HEAD no body', () => {
    const get = response();
    sendGateAnswer(request(), get.response, { status: 405, headers: { allow: 'GET, HEAD' }, body: 'Method Not Allowed\n' });
    expect(get.written).toMatchObject({ status: 405, headers: { allow: 'GET, HEAD', 'content-length': '19' }, body: 'Method Not Allowed\n' });
    const head = response();
    sendGateAnswer(request('HEAD'), head.response, { status: 405, headers: {}, body: 'Method Not Allowed\n' });
    expect(head.written.body).toBeUndefined();
  });

  it('fails a request with a logged 502, or cuts it once headers are out; a visitor gone is not logged', () => {
    const lines: string[] = [];
    const fresh = response();
    failRequest(request(), fresh.response, new Error('boom'), (line) => lines.push(line));
    expect(fresh.written.status).toBe(502);
    const started = response(true);
    failRequest(request('GET', true), started.response, new Error('gone'), (line) => lines.push(line));
    expect(started.written.destroyed).toBe(true);
    expect(lines).toEqual(['front server error (boom)']);
  });
});
