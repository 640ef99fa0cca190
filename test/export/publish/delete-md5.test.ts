import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { afterEach, expect, it } from 'vitest';
import { Publisher } from '../../../src/export/publish/publisher.ts';
import { publishSettings } from '../../../src/export/publish/s3-settings.ts';

let server: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
});

const LISTING = '<?xml version="1.0" encoding="UTF-8"?><ListBucketResult><IsTruncated>false</IsTruncated><Contents><Key>gone.html</Key><ETag>"x"</ETag><Size>1</Size></Contents></ListBucketResult>';
const MANIFEST = JSON.stringify({ version: 1, objects: { 'gone.html': { sha256: 'a', md5: 'b', headers: 'c' } }, pending: [] });

it('sends DeleteObjects with Content-MD5 of its body, signed, and no CRC32 checksum (what MinIO, B2 and others require)', async () => {
  const deletes: { headers: IncomingHttpHeaders; body: Buffer }[] = [];
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      if (request.method === 'GET' && request.url?.includes('list-type=2')) return void response.writeHead(200, { 'content-type': 'application/xml' }).end(LISTING);
      if (request.method === 'GET') return void response.writeHead(200, { 'content-type': 'application/json' }).end(MANIFEST);
      if (request.method === 'POST') deletes.push({ headers: request.headers, body });
      response.writeHead(200, { 'content-type': 'application/xml' }).end('<?xml version="1.0" encoding="UTF-8"?><DeleteResult></DeleteResult>');
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const publisher = new Publisher({ bucket: 'status-bucket', prefix: '' }, publishSettings({ AWS_ENDPOINT_URL: `http://127.0.0.1:${port}`, AWS_ACCESS_KEY_ID: 'AKID', AWS_SECRET_ACCESS_KEY: 'secret' }), 86_400);
  try {
    const result = await publisher.publish(new Map(), new Map());
    expect(result.deleted).toEqual(['gone.html']);
  } finally {
    publisher.close();
  }
  expect(deletes).toHaveLength(1);
  const [{ headers, body }] = deletes as [{ headers: IncomingHttpHeaders; body: Buffer }];
  expect(body.toString()).toContain('<Key>gone.html</Key>');
  expect(headers['content-md5']).toBe(createHash('md5').update(body).digest('base64'));
  expect(Object.keys(headers).filter((name) => name.startsWith('x-amz-checksum-') || name.startsWith('x-amz-sdk-checksum-'))).toEqual([]);
  expect(headers.authorization).toMatch(/SignedHeaders=[^,]*content-md5/);
});
