import { describe, expect, it, vi } from 'vitest';
import { EgressPolicy, EgressRefusedError } from '../../../src/service/egress/egress-policy.ts';

const to = (...addresses: string[]) => async () => addresses.map((address) => ({ address, family: address.includes(':') ? (6 as const) : (4 as const) }));

describe('EgressPolicy.refusal (when saving)', () => {
  const strict = new EgressPolicy({ allowPrivate: false, resolver: to() });

  it('judges IP literals in every form the URL parser reads, and localhost names, without DNS', () => {
    expect(strict.urlRefusal('http://0177.0.0.1/')).toMatch(/^127\.0\.0\.1 is not a public address \(loopback\)/);
    expect(strict.refusal('127.1', 22)).toMatch(/^127\.0\.0\.1 is not/);
    expect(strict.refusal('[::1]', 22)).toMatch(/^::1 is not/);
    expect(strict.refusal('LOCALHOST.', null)).toMatch(/this machine/);
    expect(strict.refusal('db.example.com', 5432)).toBeNull();
    expect(strict.urlRefusal('https://93.184.215.14/')).toBeNull();
  });

  it('allows everything with allowPrivate, and a trusted host and port only', () => {
    expect(new EgressPolicy({ allowPrivate: true }).refusal('10.0.0.1', 22)).toBeNull();
    const policy = new EgressPolicy({ allowPrivate: false });
    policy.trustOrigin('http://127.0.0.1:4321/');
    expect(policy.urlRefusal('http://127.0.0.1:4321/_porchlight/push/x')).toBeNull();
    expect(policy.urlRefusal('http://127.0.0.1:4322/')).not.toBeNull();
    expect(policy.refusal('127.0.0.1', null)).not.toBeNull();
    policy.trustOrigin('https://localhost/');
    expect(policy.urlRefusal('https://localhost:443/x')).toBeNull();
    expect(policy.urlRefusal('http://localhost/')).not.toBeNull();
  });
});

describe('EgressPolicy.resolve (when connecting)', () => {
  it('returns the first address once every answer is public, asking the resolver once', async () => {
    const resolver = vi.fn(to('93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'));
    const policy = new EgressPolicy({ allowPrivate: false, resolver });
    expect(await policy.resolve('example.com', 443)).toEqual({ address: '93.184.215.14', family: 4 });
    expect(resolver).toHaveBeenCalledTimes(1);
  });

  it('refuses literals and names without asking DNS for either', async () => {
    const resolver = vi.fn(to('93.184.215.14'));
    const policy = new EgressPolicy({ allowPrivate: false, resolver });
    await expect(policy.resolve('169.254.169.254', 80)).rejects.toThrow(EgressRefusedError);
    await expect(policy.resolve('app.localhost', 80)).rejects.toThrow(/this machine/);
    expect(resolver).not.toHaveBeenCalled();
  });

  it('reports a name without addresses as not found, and passes resolver errors on', async () => {
    await expect(new EgressPolicy({ allowPrivate: false, resolver: to() }).resolve('nothing.example', 80)).rejects.toMatchObject({ code: 'ENOTFOUND' });
    const failing = new EgressPolicy({ allowPrivate: false, resolver: () => Promise.reject(Object.assign(new Error('lookup failed'), { code: 'EAI_AGAIN' })) });
    await expect(failing.resolve('flaky.example', 80)).rejects.toMatchObject({ code: 'EAI_AGAIN' });
  });

  it('connects a trusted origin or an open policy to whatever the name resolves to', async () => {
    const open = new EgressPolicy({ allowPrivate: true, resolver: to('10.0.0.7') });
    expect(await open.resolve('nas.home', 443)).toEqual({ address: '10.0.0.7', family: 4 });
    const trusting = new EgressPolicy({ allowPrivate: false, resolver: to('127.0.0.1') });
    trusting.trust('localhost', 4321);
    expect(await trusting.resolve('localhost', 4321)).toEqual({ address: '127.0.0.1', family: 4 });
    await expect(trusting.resolve('localhost', 4322)).rejects.toThrow(EgressRefusedError);
  });
});
