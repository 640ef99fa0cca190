import { afterEach, describe, expect, it } from 'vitest';
import { createMainHost, type MainHost } from '../../../src/server/front/main-host.ts';
import { checkHost } from '../../../src/server/front/request-key.ts';
import { CUSTOM_DOMAINS_CHANNEL } from '../../../src/site/data/custom-domains.ts';
import { announcer } from '../../../src/site/data/thread-channel.ts';

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));
const host = (name: string) => checkHost(name)!;
let mainHost: MainHost;
afterEach(() => mainHost.close());

describe('the Host a request is answered as', () => {
  it('is its own without a main host', () => {
    mainHost = createMainHost(undefined);
    expect(mainHost.answeredAs(host('anything.example')).host).toBe('anything.example');
  });

  it("is its own until the site names its pages' domains, then the main host for any other name", async () => {
    mainHost = createMainHost('status.example.com');
    expect(mainHost.answeredAs(host('invented.example')).host).toBe('invented.example');
    announcer<string[]>(CUSTOM_DOMAINS_CHANNEL)(['status.acme.test']);
    await settle();
    expect(mainHost.answeredAs(host('invented.example')).host).toBe('status.example.com');
    expect(mainHost.answeredAs(host('status.acme.test')).host).toBe('status.acme.test');
  });
});
