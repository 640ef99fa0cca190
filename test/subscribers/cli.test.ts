import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { endpointHost, runCli } from '../../src/subscribers/cli.ts';
import { SubscriberStore } from '../../src/subscribers/store.ts';

let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function run(args: string[], path: string): Promise<{ code: number; text: string }> {
  let text = '';
  const code = await runCli(args, { SUBSCRIBERS_DB: path }, (chunk) => (text += chunk));
  return { code, text };
}

describe('npm run subscribers', () => {
  it('lists, exports CSV (formula-safe) and removes by address or id', async () => {
    dir = mkdtempSync(join(tmpdir(), 'pl-cli-'));
    const path = join(dir, 's.db');
    const store = await SubscriberStore.open(path);
    const alice = (await store.subscribe('page_1', { address: 'alice@example.com', key: 'alice@example.com' }, ['m1'], 1_700_000_000_000, 'pt-BR'))!;
    await store.confirm(alice.token, 1_700_000_000_001);
    await store.subscribe('page_2', { address: '=cmd@example.com', key: '=cmd@example.com' }, [], 1_700_000_000_002);
    await store.close();

    const list = await run(['list'], path);
    expect(list.code).toBe(0);
    expect(list.text).toContain('confirmed');
    expect(list.text).toContain('2 subscribers');

    const csv = (await run(['export'], path)).text.split('\r\n');
    expect(csv[0]).toBe('id,page_id,email,state,components,created_at,locale,channel,endpoint_host');
    // Ids are random: one that starts with '-' is guarded like any other formula-like field.
    const aliceId = /^[=+\-@]/.test(alice.id) ? `"'${alice.id}"` : alice.id;
    expect(csv[1]).toBe(`${aliceId},page_1,alice@example.com,confirmed,m1,2023-11-14T22:13:20.000Z,pt-BR,email,`);
    expect(csv[2]).toContain(`,"'=cmd@example.com",`);
    // No language kept: the page's default.
    expect(csv[2]).toMatch(/,,email,$/);

    expect(await run(['remove', 'ALICE@example.com'], path)).toEqual({ code: 0, text: 'removed 1 subscriber\n' });
    expect((await run(['remove', 'alice@example.com'], path)).code).toBe(1);
    expect((await run(['list'], path)).text).toContain('1 subscribers');
  });

  it('says how to use it, and where the store is missing', async () => {
    dir = mkdtempSync(join(tmpdir(), 'pl-cli-'));
    expect((await run(['frobnicate'], join(dir, 's.db'))).code).toBe(2);
    expect(await run(['list'], join(dir, 'missing.db'))).toEqual({ code: 1, text: `no subscribers store at ${join(dir, 'missing.db')} (set SUBSCRIBERS_DB, or DATABASE_URL for PostgreSQL)\n` });
  });
});

describe('endpointHost', () => {
  it('is the URL\'s host, else the placeholder asked for (\'?\' unless told)', () => {
    expect(endpointHost('https://hooks.slack.com/services/T000/B000/SECRET', '')).toBe('hooks.slack.com');
    expect(endpointHost('https://ops.example:8443/in')).toBe('ops.example:8443');
    expect(endpointHost('not a url')).toBe('?');
    expect(endpointHost(null)).toBe('?');
    expect(endpointHost('not a url', '')).toBe('');
    expect(endpointHost(null, '')).toBe('');
  });
});

describe('npm run subscribers with DATABASE_URL', () => {
  it('refuses a malformed URL in one line without repeating it', async () => {
    let text = '';
    const code = await runCli(['list'], { DATABASE_URL: 'mysql://u:hunter2@h/x' }, (chunk) => (text += chunk));
    expect({ code, text }).toEqual({ code: 1, text: 'DATABASE_URL must be a postgres:// or postgresql:// URL (postgres://user:password@host:5432/database)\n' });
  });

  it('shows a webhook or chat subscriber as its channel and URL host only (never the URL\'s path or the secret), and removes it by URL', async () => {
    dir = mkdtempSync(join(tmpdir(), 'pl-cli-'));
    const path = join(dir, 's.db');
    const store = await SubscriberStore.open(path);
    const url = 'https://hooks.slack.com/services/T000/B000/SECRETPATH';
    await store.subscribeEndpoint('page_1', { channel: 'slack', url, host: 'hooks.slack.com', signingSecret: null, contactEmail: null }, [], 1_700_000_000_000, null);
    await store.subscribeEndpoint('page_1', { channel: 'webhook', url: 'https://ops.example/in/TOKEN', host: 'ops.example', signingSecret: 'whsec_c2VjcmV0', contactEmail: 'ops@example.com' }, [], 1_700_000_000_001, null);
    await store.close();
    const list = await run(['list'], path);
    expect(list.text).toContain('slack hooks.slack.com');
    expect(list.text).toContain('webhook ops.example (contact ops@example.com)');
    const csv = (await run(['export'], path)).text;
    expect(csv).toContain(',slack,hooks.slack.com\r\n');
    expect(csv).toContain(',webhook,ops.example\r\n');
    for (const text of [list.text, csv]) {
      expect(text).not.toContain('SECRETPATH');
      expect(text).not.toContain('TOKEN');
      expect(text).not.toContain('whsec_');
    }
    expect(await run(['remove', url], path)).toEqual({ code: 0, text: 'removed 1 subscriber\n' });
  });
});
