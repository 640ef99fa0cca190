/** The API key never leaves the Authorization header: not in errors, not in logs. */
import { describe, expect, it } from 'vitest';
import { ApiStatusError } from '../../src/api/index.ts';
import * as fx from './support/fixtures.ts';
import { API_KEY, startHarness } from './support/harness.ts';

describe('API key hygiene', () => {
  it('is redacted from error bodies that echo it, from messages and from logged lines', async () => {
    const h = await startHarness({ maxRetries: 1, timeouts: { totalMs: 150 } });
    const echoed = `Invalid key ${API_KEY} (Bearer ${API_KEY})`;
    const caught: unknown[] = [];
    const capture = (promise: Promise<unknown>) => promise.catch((error: unknown) => caught.push(error));

    h.api.reply({ status: 401, json: { error: { code: 'unauthorized', message: echoed, details: [{ path: API_KEY, message: echoed }] } } });
    await capture(h.client.organization.get());
    h.api.reply({ status: 500, raw: echoed }, { status: 500, raw: echoed });
    await capture(h.client.monitors.get('mon_1'));
    h.api.reply({ raw: `{"data": "${API_KEY}` });
    await capture(h.client.monitors.get('mon_1'));
    h.api.reply({ hang: true }, { hang: true });
    await capture(h.client.incidents.list());
    // An invalid item whose bad field is keyed by the secret, reported through the default logger.
    h.api.reply({ json: { data: [{ ...fx.monitor, headers: { [API_KEY]: 1 } }], pagination: fx.pagination(1) } });
    await h.client.monitors.list();
    await h.close();

    expect(caught).toHaveLength(4);
    const unauthorized = caught[0] as ApiStatusError;
    expect(unauthorized).toBeInstanceOf(ApiStatusError);
    expect(unauthorized.message).toContain('Invalid key [redacted] (Bearer [redacted])');
    expect(unauthorized.body?.error.details?.[0]?.path).toBe('[redacted]');
    expect(h.logged).toHaveLength(1);
    expect(h.logged[0]).toContain('[redacted]');

    const everything = [
      ...caught.map((error) => `${(error as Error).message} ${(error as Error).stack ?? ''} ${JSON.stringify(error)}`),
      ...h.logged,
    ].join('\n');
    expect(everything).not.toContain(API_KEY);
  });
});
