/**
 * A connection pinned to the checked address still speaks TLS to the name: the server name (SNI)
 * is the host name, and the certificate is verified (here it fails, being self-signed).
 */
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCheck } from '../../../src/service/checks/run-check.ts';
import { EgressPolicy } from '../../../src/service/egress/egress-policy.ts';

const fixtures = path.join(import.meta.dirname, 'fixtures');
/** A self-signed certificate for pinned.example.test (test-only key, valid until 2126). */
const cert = readFileSync(path.join(fixtures, 'pinned-example-test.crt'));
const key = readFileSync(path.join(fixtures, 'pinned-example-test.key'));

let server: tls.Server;
let port: number;
const serverNames: (string | false)[] = [];

beforeAll(async () => {
  const context = tls.createSecureContext({ cert, key });
  server = tls.createServer({
    cert,
    key,
    SNICallback: (name, done) => {
      serverNames.push(name);
      done(null, context);
    },
  });
  server.on('tlsClientError', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

/** Every name resolves to the loopback server; private targets are allowed for this test. */
const egress = new EgressPolicy({ allowPrivate: true, resolver: async () => [{ address: '127.0.0.1', family: 4 }] });

describe('a pinned https check', () => {
  it('sends the host name as SNI and verifies the certificate against it', async () => {
    const outcome = await runCheck({ type: 'http', url: `https://pinned.example.test:${port}/`, timeoutSeconds: 2, rules: [] }, { egress });
    // The certificate is for the right name but self-signed: verification ran.
    expect(outcome).toMatchObject({ status: 'down', error: 'TLS certificate is self-signed' });
    expect(serverNames.at(-1)).toBe('pinned.example.test');
  });

  it('names whichever host the URL names, whatever address it was pinned to', async () => {
    await runCheck({ type: 'http', url: `https://other.example.test:${port}/`, timeoutSeconds: 2, rules: [] }, { egress });
    expect(serverNames.at(-1)).toBe('other.example.test');
  });
});
