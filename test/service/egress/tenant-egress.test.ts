/**
 * One organization's monitors and channels cannot be aimed at the host or its networks (issue 17,
 * item 2). Nothing here leaves the machine: refused targets are never saved (and the scheduler is
 * off), and connect-time refusals use `localhost` or names an injected resolver maps to 127.0.0.1.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMonitorSchema } from '../../../src/contract/monitor.ts';
import { createChannelSchema } from '../../../src/contract/notification.ts';
import type { ServiceOptions } from '../../../src/service/index.ts';
import { dataOf, expectError, idOf, startTestService, type TestService } from '../helpers.ts';

/** A loopback server holding a secret, counting every request it gets. */
interface SecretServer {
  origin: string;
  port: number;
  hits: string[];
  close(): Promise<void>;
}

async function startSecretServer(handler?: (path: string) => { status: number; location?: string }): Promise<SecretServer> {
  const hits: string[] = [];
  const server: Server = createServer((req, res) => {
    hits.push(`${req.headers.host ?? ''}${req.url ?? ''}`);
    const answer = handler?.(req.url ?? '/') ?? { status: 200 };
    res.writeHead(answer.status, answer.location ? { location: answer.location } : {}).end('root-password=hunter2');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let t: TestService | null = null;
let servers: SecretServer[] = [];
afterEach(async () => {
  await t?.close();
  t = null;
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

async function service(options: Partial<ServiceOptions> = {}): Promise<TestService> {
  t = await startTestService(options);
  return t;
}

async function secretServer(handler?: Parameters<typeof startSecretServer>[0]): Promise<SecretServer> {
  const server = await startSecretServer(handler);
  servers.push(server);
  return server;
}

const bodyOracle = [{ type: 'body', operator: 'contains', value: 'hunter2' }];

describe('targets refused when a monitor or channel is saved', () => {
  it.each([
    ['the API itself on loopback', { type: 'http', url: 'http://127.0.0.1:4322/api/v1/organization' }, 'url'],
    ['localhost', { type: 'http', url: 'http://localhost:22/' }, 'url'],
    ['a name under .localhost', { type: 'http', url: 'http://admin.localhost/' }, 'url'],
    ['the cloud metadata address', { type: 'http', url: 'http://169.254.169.254/latest/meta-data/' }, 'url'],
    ['a private network', { type: 'http', url: 'http://10.0.0.1/' }, 'url'],
    ['carrier-grade NAT', { type: 'http', url: 'http://100.64.0.1/' }, 'url'],
    ['loopback written in hex', { type: 'http', url: 'http://0x7f.1/' }, 'url'],
    ['loopback written as one number', { type: 'http', url: 'http://2130706433/' }, 'url'],
    ['IPv6 loopback', { type: 'tcp', host: '::1', port: 8080 }, 'host'],
    ['IPv4-mapped IPv6 loopback', { type: 'tcp', host: '::ffff:127.0.0.1', port: 8080 }, 'host'],
    ['a TCP port on loopback', { type: 'tcp', host: '127.0.0.1', port: 22 }, 'host'],
    ['a TCP port on localhost', { type: 'tcp', host: 'localhost', port: 6379 }, 'host'],
    ['a TCP port on a link-local IPv6 address', { type: 'tcp', host: 'fe80::1', port: 22 }, 'host'],
    ['a ping of a private address', { type: 'ping', host: '192.168.1.1' }, 'host'],
    ['a ping of the unspecified address', { type: 'ping', host: '0.0.0.0' }, 'host'],
    ['a ping of a multicast address', { type: 'ping', host: '224.0.0.1' }, 'host'],
  ])('refuses %s with a validation error naming the field', async (_what, target, field) => {
    const { a } = await service();
    const response = await a.post('/monitors', { name: 'Probe', ...target });
    const paths = expectError(response, 400, 'validation_error');
    expect(paths).toContain(field);
    expect(response.text).toMatch(/ALLOW_PRIVATE_TARGETS/);
    expect(dataOf(await a.get('/organization')).id).toBeTruthy();
    expect(((await a.get('/monitors')).json as { data: unknown[] }).data).toHaveLength(0);
  });

  it('refuses a monitor edited to point at a private address, and keeps the old target', async () => {
    const { a } = await service();
    const id = idOf(await a.post('/monitors', { name: 'Site', type: 'http', url: 'https://example.com/' }));
    await a.patch(`/monitors/${id}`, { active: false });
    expect(expectError(await a.patch(`/monitors/${id}`, { url: 'http://169.254.169.254/' }), 400, 'validation_error')).toEqual(['url']);
    const tcp = idOf(await a.post('/monitors', { name: 'Db', type: 'tcp', host: 'db.example.com', port: 5432 }));
    await a.patch(`/monitors/${tcp}`, { active: false });
    expect(expectError(await a.patch(`/monitors/${tcp}`, { host: '10.1.2.3' }), 400, 'validation_error')).toEqual(['host']);
    expect(dataOf(await a.get(`/monitors/${id}`)).url).toBe('https://example.com/');
    expect(dataOf(await a.get(`/monitors/${tcp}`)).host).toBe('db.example.com');
  });

  it('refuses chat webhooks to private addresses, on create and on edit', async () => {
    const { a } = await service();
    expect(expectError(await a.post('/notifications', { name: 'Ops', type: 'slack', webhookUrl: 'http://127.0.0.1:9/hook' }), 400, 'validation_error')).toEqual(['webhookUrl']);
    const id = idOf(await a.post('/notifications', { name: 'Ops', type: 'slack', webhookUrl: 'https://hooks.example.test/ops', enabled: false }));
    expect(expectError(await a.patch(`/notifications/${id}`, { webhookUrl: 'http://[fd00::1]/hook' }), 400, 'validation_error')).toEqual(['webhookUrl']);
    expect(dataOf(await a.get(`/notifications/${id}`)).webhookUrl).toBe('https://hooks.example.test/ops');
  });

  it('accepts every private target with ALLOW_PRIVATE_TARGETS', async () => {
    const { a, service: running } = await service({ allowPrivateTargets: true });
    expect(running.privateTargets).toBe('all');
    expect((await a.post('/monitors', { name: 'Local', type: 'tcp', host: '127.0.0.1', port: 9 })).status).toBe(201);
    expect((await a.post('/notifications', { name: 'Local', type: 'slack', webhookUrl: 'http://localhost:9/hook' })).status).toBe(201);
  });
});

describe('targets refused when connecting', () => {
  it('refuses a saved monitor whose name is this machine: the body rule learns nothing', async () => {
    const secret = await secretServer();
    const test = await service();
    // As a monitor saved before the policy existed: straight into the store.
    const monitor = await test.service.store.monitors.insert(
      test.orgA.organizationId,
      createMonitorSchema.parse({ name: 'Oracle', type: 'http', url: `http://localhost:${secret.port}/`, rules: bodyOracle }),
      new Date(),
    );
    const check = dataOf(await test.a.post(`/monitors/${monitor.id}/run`));
    expect(check).toMatchObject({ status: 'down', statusCode: null });
    expect(String(check.error)).toMatch(/^refused: localhost is this machine/);
    expect(secret.hits).toEqual([]);
  });

  it('refuses a TCP port behind a name that resolves to loopback: no port scanning', async () => {
    const secret = await secretServer();
    const test = await service({ resolver: async () => [{ address: '127.0.0.1', family: 4 }] });
    const id = idOf(await test.a.post('/monitors', { name: 'Scan', type: 'tcp', host: 'db.example.test', port: secret.port }));
    const check = dataOf(await test.a.post(`/monitors/${id}/run`));
    expect(check).toMatchObject({ status: 'down', error: expect.stringMatching(/^refused: db\.example\.test resolves to an address that is not public \(loopback\)/) });
    expect(secret.hits).toEqual([]);
  });

  it('refuses a name with any private address among its answers, and pings nothing', async () => {
    const test = await service({
      resolver: async () => [
        { address: '93.184.215.14', family: 4 },
        { address: '10.0.0.5', family: 4 },
      ],
    });
    const id = idOf(await test.a.post('/monitors', { name: 'Mixed', type: 'ping', host: 'mixed.example.test' }));
    const check = dataOf(await test.a.post(`/monitors/${id}/run`));
    expect(check.error).toMatch(/^refused: mixed\.example\.test resolves to an address that is not public \(private \(RFC 1918\)\)/);
    expect(check.error).not.toContain('10.0.0.5');
  });

  it('re-checks every redirect hop: an allowed origin cannot bounce the check to loopback', async () => {
    const secret = await secretServer();
    const bouncer = await secretServer(() => ({ status: 302, location: `${secret.origin}/` }));
    const test = await service();
    // The bouncer stands in for a public site: the one origin this service was told to trust.
    test.service.setSiteUrl(bouncer.origin);
    const id = idOf(await test.a.post('/monitors', { name: 'Bounce', type: 'http', url: `${bouncer.origin}/start`, rules: bodyOracle }));
    const check = dataOf(await test.a.post(`/monitors/${id}/run`));
    expect(check).toMatchObject({ status: 'down', statusCode: 302 });
    expect(String(check.error)).toMatch(/^refused: 127\.0\.0\.1 is not a public address \(loopback\)/);
    expect(bouncer.hits).toHaveLength(1);
    expect(secret.hits).toEqual([]);
  });

  it('connects to the address the policy checked (one resolution per connection), keeping the name as Host', async () => {
    const secret = await secretServer();
    const resolver = vi.fn(async () => [{ address: '127.0.0.1', family: 4 as const }]);
    const test = await service({ allowPrivateTargets: true, resolver });
    const id = idOf(await test.a.post('/monitors', { name: 'Pinned', type: 'http', url: `http://pinned.example.test:${secret.port}/` }));
    expect(dataOf(await test.a.post(`/monitors/${id}/run`))).toMatchObject({ status: 'up', statusCode: 200 });
    expect(resolver).toHaveBeenCalledTimes(1);
    expect(resolver).toHaveBeenCalledWith('pinned.example.test');
    expect(secret.hits).toEqual([`pinned.example.test:${secret.port}/`]);
  });

  it('tries each checked address in turn, as happy eyeballs does (an IPv6 answer the server does not take)', async () => {
    const secret = await secretServer();
    const resolver = vi.fn(async () => [
      { address: '::1', family: 6 as const },
      { address: '127.0.0.1', family: 4 as const },
    ]);
    const test = await service({ allowPrivateTargets: true, resolver });
    const http = idOf(await test.a.post('/monitors', { name: 'Dual', type: 'http', url: `http://dual.example.test:${secret.port}/` }));
    expect(dataOf(await test.a.post(`/monitors/${http}/run`))).toMatchObject({ status: 'up', statusCode: 200 });
    const tcp = idOf(await test.a.post('/monitors', { name: 'Dual TCP', type: 'tcp', host: 'dual.example.test', port: secret.port }));
    expect(dataOf(await test.a.post(`/monitors/${tcp}/run`))).toMatchObject({ status: 'up' });
    expect(resolver).toHaveBeenCalledTimes(2);
  });

  it('refuses a chat webhook saved with a loopback address, without retrying', async () => {
    const secret = await secretServer();
    const test = await service({ notifications: { deliver: true, retryDelaysMs: [10, 10] } });
    const channel = await test.service.store.notifications.insert(
      test.orgA.organizationId,
      createChannelSchema.parse({ name: 'Legacy', type: 'slack', webhookUrl: `http://localhost:${secret.port}/hook` }),
      new Date(),
    );
    await test.a.post('/incidents', { title: 'Down', message: 'Looking.', monitorIds: [] });
    await vi.waitFor(async () => expect(await test.service.store.deliveries.forChannel(channel.id)).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const attempts = await test.service.store.deliveries.forChannel(channel.id);
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({ outcome: 'failed', willRetry: false, error: expect.stringMatching(/^refused: localhost is this machine/) });
    expect(secret.hits).toEqual([]);
  });
});
