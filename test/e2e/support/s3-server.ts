/**
 * An S3-compatible server on loopback for the publishing tests: s3rver (the maintained
 * @20minutes fork) in this process, behind a small handler that records every request and can
 * slow down or throttle object uploads, as a busy store does. Credentials S3RVER/S3RVER.
 *
 * What it checks: every signed request's SigV4 signature (support/sigv4-check.ts: a wrong secret
 * is SignatureDoesNotMatch, an unknown key InvalidAccessKeyId), a missing bucket (NoSuchBucket),
 * and it keeps Content-Type, Cache-Control, Content-Language, x-amz-website-redirect-location and
 * x-amz-meta-* as S3 does. s3rver's own signature check is off (allowMismatchedSignatures): it
 * canonicalizes bucket-level paths without the trailing slash the SDK signs, so it would refuse
 * every listing signed correctly. Unsigned requests (the tests' own reads) are anonymous reads.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from '@20minutes/s3rver';
import { checkSignature } from './sigv4-check.ts';

export interface S3Request {
  method: string;
  /** Object key (no bucket); '' for a bucket-level request. */
  key: string;
  /** e.g. 'delete' for DeleteObjects, 'list-type' for ListObjectsV2. */
  query: string;
  status: number;
  /** Order of completion. */
  at: number;
}

export interface S3TestServer {
  endpoint: string;
  bucket: string;
  env: Record<string, string>;
  /** Completed requests, in order of completion. */
  requests: S3Request[];
  /** Each object PUT (not the manifest) waits this long before it is handled. */
  uploadDelayMs: number;
  /** Answer 503 SlowDown to this many object PUTs (each is then retried by the client). */
  throttleNext: number;
  throttled: number;
  /** An anonymous GET of a key, as a CDN in front of the bucket would fetch it. */
  get(key: string): Promise<Response>;
  close(): Promise<void>;
}

export const S3_BUCKET = 'status-bucket';
/** s3rver's one account. */
const CREDENTIALS = new Map([['S3RVER', 'S3RVER']]);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function startS3Server(): Promise<S3TestServer> {
  const directory = await mkdtemp(path.join(tmpdir(), 'porchlight-s3-'));
  const s3rver = new S3rver({ silent: true, directory, allowMismatchedSignatures: true, configureBuckets: [{ name: S3_BUCKET }] });
  await s3rver.configureBuckets();
  const handle = s3rver.callback();
  let sequence = 0;
  const state = { uploadDelayMs: 0, throttleNext: 0, throttled: 0 };
  const requests: S3Request[] = [];

  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://s3.local');
    const [, , ...rest] = url.pathname.split('/');
    const key = decodeURIComponent(rest.join('/'));
    const entry = { method: request.method ?? 'GET', key, query: [...url.searchParams.keys()].filter((name) => name !== 'x-id').join('&') };
    response.once('finish', () => requests.push({ ...entry, status: response.statusCode, at: (sequence += 1) }));
    const isUpload = entry.method === 'PUT' && key !== '' && !key.endsWith('.porchlight-publish.json');
    if (request.headers.authorization !== undefined) {
      const check = checkSignature(entry.method, request.url ?? '/', request.headers, CREDENTIALS);
      if (!check.ok) {
        request.resume();
        response.writeHead(403, { 'content-type': 'application/xml' });
        response.end(`<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${check.code}</Code><Message>${check.message}</Message></Error>`);
        return;
      }
    }
    void (async () => {
      if (isUpload && state.throttleNext > 0) {
        state.throttleNext -= 1;
        state.throttled += 1;
        request.resume();
        response.writeHead(503, { 'content-type': 'application/xml' });
        response.end('<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>');
        return;
      }
      if (isUpload && state.uploadDelayMs > 0) {
        await sleep(state.uploadDelayMs);
        // A client that died meanwhile sent no complete request: a real store keeps nothing of it.
        if (request.socket.destroyed) return;
      }
      handle(request, response);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket: S3_BUCKET,
    env: {
      AWS_ENDPOINT_URL: endpoint,
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'S3RVER',
      AWS_SECRET_ACCESS_KEY: 'S3RVER',
      // Never the instance metadata service or a developer's own AWS files.
      AWS_EC2_METADATA_DISABLED: 'true',
      AWS_CONFIG_FILE: path.join(directory, 'no-aws-config'),
      AWS_SHARED_CREDENTIALS_FILE: path.join(directory, 'no-aws-credentials'),
    },
    requests,
    get uploadDelayMs() {
      return state.uploadDelayMs;
    },
    set uploadDelayMs(value: number) {
      state.uploadDelayMs = value;
    },
    get throttleNext() {
      return state.throttleNext;
    },
    set throttleNext(value: number) {
      state.throttleNext = value;
    },
    get throttled() {
      return state.throttled;
    },
    get: (key) => fetch(`${endpoint}/${S3_BUCKET}/${key.split('/').map(encodeURIComponent).join('/')}`),
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await rm(directory, { recursive: true, force: true });
    },
  };
}
