import { afterEach, describe, expect, it } from 'vitest';
import { createProbes, type Probes } from '../../src/server/front/probes.ts';
import { DATA_AGE_CHANNEL } from '../../src/site/data/data-age.ts';
import { DATA_WANTED_CHANNEL } from '../../src/site/data/data-wanted.ts';
import { announcer, listenOn } from '../../src/site/data/thread-channel.ts';

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));
let probes: Probes;
const stops: (() => void)[] = [];

afterEach(() => {
  probes.close();
  for (const stop of stops.splice(0)) stop();
});

describe('health and readiness on the serving thread', () => {
  it('answers /healthz at once, with or without a query, and nothing else', () => {
    probes = createProbes({ maxStaleMs: 60_000 });
    expect(probes.answer('/healthz')?.status).toBe(200);
    expect(probes.answer('/healthz?from=lb')?.body).toBe('ok\n');
    expect(probes.answer('/healthzz')).toBeNull();
    expect(probes.answer('/acme')).toBeNull();
  });

  it('is ready once the site tells of data young enough to show, and not once it is too old', async () => {
    const clock = { now: 1_000_000 };
    probes = createProbes({ maxStaleMs: 60_000, now: () => clock.now });
    expect(probes.answer('/readyz')?.status).toBe(503);
    announcer<number>(DATA_AGE_CHANNEL)(clock.now - 1_000);
    await settle();
    expect(probes.answer('/readyz')).toMatchObject({ status: 200, body: 'ready\n' });
    clock.now += 60_000;
    expect(probes.answer('/readyz')?.status).toBe(503);
  });

  it('asks the site for data when probed, at most once a second', async () => {
    const clock = { now: 1_000_000 };
    probes = createProbes({ maxStaleMs: 60_000, now: () => clock.now });
    let asked = 0;
    stops.push(listenOn(DATA_WANTED_CHANNEL, () => (asked += 1)));
    for (let index = 0; index < 5; index += 1) probes.answer('/readyz');
    clock.now += 1_000;
    probes.answer('/readyz');
    await settle();
    expect(asked).toBe(2);
  });
});
