/** The front's own small answers: plain text, the gate's and the probes' answers, and a failed request. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { GateAnswer } from './request-gate.ts';

export function plain(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
  response.end(text);
}

export function sendGateAnswer(request: IncomingMessage, response: ServerResponse, answer: GateAnswer): void {
  response.writeHead(answer.status, { ...answer.headers, 'content-length': String(Buffer.byteLength(answer.body)) });
  response.end(request.method === 'HEAD' ? undefined : answer.body);
}

/** A request that failed: a line in the log (unless its visitor left), and a 502 if nothing was sent yet. */
export function failRequest(request: IncomingMessage, response: ServerResponse, error: unknown, log: (line: string) => void): void {
  // A visitor who went away mid-answer is not an error of the site: nothing to log.
  if (!request.destroyed && !response.destroyed) log(`front server error (${error instanceof Error ? error.message : String(error)})`);
  if (response.headersSent) {
    response.destroy();
    return;
  }
  plain(response, 502, 'The status page is temporarily unavailable. Please try again in a moment.\n');
}
