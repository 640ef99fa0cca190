/**
 * The on-demand TLS gate over real sockets: which names it allows, that every refusal looks the
 * same, that it follows the names the site announces (a page made non-public or moved to another
 * domain stops being allowed at the next announcement), and that it never needs the site thread.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { StatusPage } from '../../../src/contract/index.ts';
import { announceCustomDomains, followCustomDomains } from '../../../src/site/data/custom-domains.ts';
import { createTlsGate, decideTls, mayBeCustomDomain, type TlsGate } from '../../../src/server/front/tls-gate.ts';

let server: Server;
let origin: string;
let gate: TlsGate | null = null;

beforeAll(async () => {
  server = createServer((request, response) => {
    if (gate?.matches(request.url ?? '/')) return gate.handle(request, response);
    response.writeHead(418).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(() => {
  gate?.close();
  gate = null;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** Names that never change, announced once at the start (fresh for the tests' duration). */
function staticDomains(names: string[] | null) {
  const set = names === null ? null : new Set(names);
  return (onAnnounce: () => void) => {
    if (set !== null) onAnnounce();
    return { current: () => set, close: () => undefined };
  };
}

async function ask(query: string, method = 'GET'): Promise<{ status: number; body: string; headers: Headers }> {
  const response = await fetch(`${origin}/_porchlight/tls-allowed${query}`, { method });
  return { status: response.status, body: await response.text(), headers: response.headers };
}

function page(overrides: Partial<StatusPage>): StatusPage {
  return {
    id: overrides.slug ?? 'p',
    name: 'Page',
    slug: 'page',
    customDomain: null,
    isPublic: true,
    ...overrides,
  } as StatusPage;
}

async function until(check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met within 5 s');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('decideTls', () => {
  const allowed = new Set(['status.acme.test', 'xn--bcher-kva.example']);

  it('allows the public pages\' custom domains and the main host, in any spelling', () => {
    expect(decideTls('domain=status.acme.test', allowed, null)).toBe('allowed');
    expect(decideTls('domain=STATUS.acme.TEST.', allowed, null)).toBe('allowed');
    expect(decideTls(`domain=${encodeURIComponent('bücher.example')}`, allowed, null)).toBe('allowed');
    expect(decideTls('domain=status.example.com', allowed, 'status.example.com')).toBe('allowed');
  });

  it('refuses every other name, and every trick around an allowed one', () => {
    for (const name of ['other.test', 'acme.test', 'x.status.acme.test', 'status.acme.test:443', 'status.acme.test/x', 'evil.test#status.acme.test', 'status.acme.test@evil.test', '']) {
      expect(decideTls(`domain=${encodeURIComponent(name)}`, allowed, null), name).toBe('refused');
    }
  });

  it('asks for exactly one name', () => {
    expect(decideTls('', allowed, null)).toBe('bad-request');
    expect(decideTls('domain=status.acme.test&domain=other.test', allowed, null)).toBe('bad-request');
  });

  it('is not ready before the site has said which names are its own, except for the main host', () => {
    expect(decideTls('domain=status.acme.test', null, null)).toBe('not-ready');
    expect(decideTls('domain=status.example.com', null, 'status.example.com')).toBe('allowed');
  });
});

describe('the gate over HTTP', () => {
  it('answers 200 for an allowed name and one identical 404 for every refusal', async () => {
    gate = createTlsGate({ publicHostName: 'status.example.com', maxWaitMs: 50, askForFreshData: () => undefined, domains: staticDomains(['status.acme.test']) });
    const allowed = await ask('?domain=status.acme.test');
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('cache-control')).toBe('no-store');
    expect((await ask('?domain=status.example.com')).status).toBe(200);
    const refusals = await Promise.all(['unknown.test', 'status.acme.test%3A8443', 'a..b', '-x.test'].map((name) => ask(`?domain=${name}`)));
    for (const refusal of refusals) expect({ status: refusal.status, body: refusal.body }).toEqual({ status: 404, body: 'not allowed\n' });
    expect(gate.counts).toEqual({ allowed: 2, refused: 4 });
  });

  it('refuses methods other than GET and HEAD, and a missing name', async () => {
    gate = createTlsGate({ publicHostName: null, maxWaitMs: 50, askForFreshData: () => undefined, domains: staticDomains(['status.acme.test']) });
    expect((await ask('?domain=status.acme.test', 'POST')).status).toBe(405);
    expect((await ask('?domain=status.acme.test', 'HEAD')).status).toBe(200);
    expect((await ask('')).status).toBe(400);
  });

  it('answers 503 with Retry-After until the site has loaded or restored its data', async () => {
    gate = createTlsGate({ publicHostName: null, maxWaitMs: 50, domains: staticDomains(null), askForFreshData: () => undefined });
    const answer = await ask('?domain=status.acme.test');
    expect(answer.status).toBe(503);
    expect(answer.headers.get('retry-after')).toBe('5');
  });

  it('follows what the site announces: a page made non-public or moved stops being allowed', async () => {
    gate = createTlsGate({ publicHostName: null, maxWaitMs: 50, askForFreshData: () => undefined, domains: followCustomDomains });
    const acme = page({ slug: 'acme', customDomain: 'status.acme.test' });
    const shop = page({ slug: 'shop', customDomain: 'Bücher.Example' });
    announceCustomDomains([acme, shop, page({ slug: 'secret', customDomain: 'secret.acme.test', isPublic: false })]);
    await until(async () => (await ask('?domain=status.acme.test')).status === 200);
    expect((await ask('?domain=xn--bcher-kva.example')).status).toBe(200);
    // A private page's domain is refused exactly like a name nobody configured.
    expect(await ask('?domain=secret.acme.test')).toMatchObject({ status: 404, body: 'not allowed\n' });

    announceCustomDomains([{ ...acme, isPublic: false }, { ...shop, customDomain: 'status.shop.test' }]);
    await until(async () => (await ask('?domain=status.acme.test')).status === 404);
    expect((await ask('?domain=xn--bcher-kva.example')).status).toBe(404);
    expect((await ask('?domain=status.shop.test')).status).toBe(200);
  });
});

describe('names the gate does not know', () => {
  it('ask the site for its pages list and wait for its next announcement: a domain added a moment ago is allowed on the first ask', async () => {
    let names = new Set(['status.acme.test']);
    let announce: () => void = () => undefined;
    let asks = 0;
    gate = createTlsGate({
      publicHostName: null,
      maxWaitMs: 5_000,
      domains: (onAnnounce) => {
        announce = onAnnounce;
        return { current: () => names, close: () => undefined };
      },
      // The site answers the ask with a load whose names hold the new page's domain.
      askForFreshData: () => {
        asks += 1;
        setTimeout(() => {
          names = new Set(['status.acme.test', 'new.acme.test']);
          announce();
        }, 50);
      },
    });
    announce();
    // A known name asks nothing.
    expect((await ask('?domain=status.acme.test')).status).toBe(200);
    expect(asks).toBe(0);
    const started = performance.now();
    const answers = await Promise.all([ask('?domain=new.acme.test'), ask('?domain=new.acme.test'), ask('?domain=other.test')]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 404]);
    // One ask for the three refusals that came while it was outstanding.
    expect(asks).toBe(1);
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('are answered from what is known when no announcement comes (the API is down)', async () => {
    let asks = 0;
    gate = createTlsGate({
      publicHostName: null,
      maxWaitMs: 100,
      domains: staticDomains(['status.acme.test']),
      askForFreshData: () => (asks += 1),
    });
    const answers = await Promise.all([ask('?domain=status.acme.test'), ask('?domain=other.test'), ask('?domain=other.test')]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 404, 404]);
    expect(asks).toBe(1);
  });

  it('are asked about by the front the same way: once per name per 10 s, never for a known name, the main host or an address', async () => {
    let names = new Set(['status.acme.test']);
    let announce: () => void = () => undefined;
    let asks = 0;
    let clock = 1_000_000;
    gate = createTlsGate({
      publicHostName: 'status.example.com',
      maxWaitMs: 5_000,
      now: () => clock,
      domains: (onAnnounce) => {
        announce = onAnnounce;
        return { current: () => names, close: () => undefined };
      },
      askForFreshData: () => {
        asks += 1;
        setTimeout(() => {
          names = new Set(['status.acme.test', 'new.acme.test']);
          announce();
        }, 50);
      },
    });
    announce();
    for (const name of ['status.acme.test', 'status.example.com', '127.0.0.1', 'localhost']) expect(gate.askAbout(name), name).toBeNull();
    const waiting = gate.askAbout('new.acme.test');
    expect(waiting).not.toBeNull();
    await waiting;
    expect(asks).toBe(1);
    // Now known: no ask. Another unknown name asks once, and not again within 10 s.
    expect(gate.askAbout('new.acme.test')).toBeNull();
    await gate.askAbout('alias.example.org');
    expect(gate.askAbout('alias.example.org')).toBeNull();
    expect(asks).toBe(2);
    clock += 10_001;
    expect(gate.askAbout('alias.example.org')).not.toBeNull();
    expect(asks).toBe(3);
  });
});

describe('mayBeCustomDomain', () => {
  it('takes dotted names and leaves out IP literals and single labels', () => {
    expect(['status.acme.test', 'a.b', 'xn--bcher-kva.example'].map(mayBeCustomDomain)).toEqual([true, true, true]);
    expect(['127.0.0.1', '10.0.0.5', 'localhost', '[::1]', ''].map(mayBeCustomDomain)).toEqual([false, false, false, false, false]);
  });
});
