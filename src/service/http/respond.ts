import type { ServerResponse } from 'node:http';
import type { ErrorBody } from '../../contract/common.ts';
import type { ApiError } from './errors.ts';

const BASE_HEADERS = {
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
} as const;

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Readonly<Record<string, string>> = {}): void {
  const payload = Buffer.from(JSON.stringify(body), 'utf8');
  res.writeHead(status, {
    ...BASE_HEADERS,
    ...headers,
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(payload.byteLength),
  });
  res.end(payload);
}

export function sendEmpty(res: ServerResponse, status: number, headers: Readonly<Record<string, string>> = {}): void {
  res.writeHead(status, { ...BASE_HEADERS, ...headers });
  res.end();
}

export function sendError(res: ServerResponse, error: ApiError, headers: Readonly<Record<string, string>> = {}): void {
  const body: ErrorBody = { error: { code: error.code, message: error.message } };
  if (error.details && error.details.length > 0) body.error.details = error.details;
  sendJson(res, error.status, body, { ...headers, ...error.headers });
}
