/**
 * Checks an AWS Signature Version 4 header signature the way S3 does, written from the
 * specification rather than with the SDK's own signer, so a wrong secret or a request changed after
 * signing (a header the SDK signed and something altered) is refused as S3 would refuse it.
 * The payload hash is taken as the client declared it (x-amz-content-sha256).
 */
import { createHash, createHmac } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

const AUTHORIZATION = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/;

const rfc3986 = (value: string): string => encodeURIComponent(value).replace(/[!'()*]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`);

function canonicalQuery(search: string): string {
  if (search === '') return '';
  return search
    .split('&')
    .filter((part) => part !== '')
    .map((part) => {
      const [name = '', ...rest] = part.split('=');
      return [rfc3986(decodeURIComponent(name.replace(/\+/g, '%20'))), rfc3986(decodeURIComponent(rest.join('=').replace(/\+/g, '%20')))] as const;
    })
    .sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
}

const hmac = (key: Buffer | string, data: string): Buffer => createHmac('sha256', key).update(data).digest();

export type SignatureCheck = { ok: true; accessKeyId: string } | { ok: false; code: 'InvalidAccessKeyId' | 'SignatureDoesNotMatch' | 'AccessDenied'; message: string };

/** `secrets`: access key id → secret. Requests without an Authorization header are not checked here. */
export function checkSignature(method: string, rawUrl: string, headers: IncomingHttpHeaders, secrets: ReadonlyMap<string, string>): SignatureCheck {
  const match = AUTHORIZATION.exec(String(headers.authorization ?? ''));
  if (!match) return { ok: false, code: 'AccessDenied', message: 'Unsupported or malformed Authorization header' };
  const [, accessKeyId = '', date = '', region = '', service = '', signedHeaders = '', signature = ''] = match;
  const secret = secrets.get(accessKeyId);
  if (secret === undefined) return { ok: false, code: 'InvalidAccessKeyId', message: 'The AWS Access Key Id you provided does not exist in our records.' };
  const amzDate = String(headers['x-amz-date'] ?? '');
  const queryAt = rawUrl.indexOf('?');
  const path = queryAt === -1 ? rawUrl : rawUrl.slice(0, queryAt);
  const search = queryAt === -1 ? '' : rawUrl.slice(queryAt + 1);
  const names = signedHeaders.split(';');
  const canonicalHeaders = names
    .map((name) => {
      const value = headers[name];
      return `${name}:${(Array.isArray(value) ? value.join(',') : String(value ?? '')).trim().replace(/\s+/g, ' ')}\n`;
    })
    .join('');
  const canonicalRequest = [method, path, canonicalQuery(search), canonicalHeaders, signedHeaders, String(headers['x-amz-content-sha256'] ?? 'UNSIGNED-PAYLOAD')].join('\n');
  const scope = `${date}/${region}/${service}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, createHash('sha256').update(canonicalRequest).digest('hex')].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${secret}`, date), region), service), 'aws4_request');
  const expected = hmac(key, stringToSign).toString('hex');
  if (!names.includes('host') || !amzDate.startsWith(date) || expected !== signature) {
    return { ok: false, code: 'SignatureDoesNotMatch', message: 'The request signature we calculated does not match the signature you provided. Check your key and signing method.' };
  }
  return { ok: true, accessKeyId };
}
