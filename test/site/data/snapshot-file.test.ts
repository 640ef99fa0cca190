import { mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Monitor } from '../../../src/contract/index.ts';
import { MAX_SNAPSHOT_BYTES, SNAPSHOT_FILE_NAME, snapshotFile } from '../../../src/site/data/snapshot-file.ts';
import type { Snapshot } from '../../../src/site/data/snapshot.ts';
import type { MonitorHistory } from '../../../src/site/data/uptime-history.ts';

const OWNER = 'https://api.example.test/api/v1 0123456789abcdef';

const monitor: Monitor = {
  id: 'mon_1',
  name: 'Payments API',
  type: 'http',
  url: 'https://user:hunter2@payments.internal/health?token=s3cret',
  method: 'POST',
  headers: { authorization: 'Bearer check-secret' },
  body: '{"password":"p4ss"}',
  rules: [{ type: 'status_code', operator: 'eq', value: 200 }],
  currentStatus: 'down',
  lastLatency: 812,
};

const history: MonitorHistory = {
  days: { '2030-01-01': { checks: 10, up: 9 } },
  headAt: '2030-01-01T10:00:00.000Z',
  headIds: ['chk_9'],
  tailAt: '2030-01-01T00:00:00.000Z',
  tailIds: ['chk_0'],
  backfillOffset: 10,
  complete: true,
  recent: [{ checkedAt: '2030-01-01T10:00:00.000Z', latency: 812 }],
};

function snapshot(): Snapshot {
  return {
    organization: { id: 'org_1', name: 'Acme', slug: 'acme' },
    pages: [{ id: 'page_1', name: 'Acme status', slug: 'acme', isPublic: true, monitors: [{ id: 'pm_1', monitorId: 'mon_1', displayName: 'Payments' }] }],
    monitors: [monitor],
    incidents: [
      {
        id: 'inc_1',
        title: 'Payment failures <script>',
        status: 'investigating',
        severity: 'major',
        startedAt: '2030-01-01T09:58:00.000Z',
        updates: [{ id: 'upd_1', status: 'investigating', message: 'Looking into it.', createdAt: '2030-01-01T09:58:00.000Z' }],
        monitors: [{ monitor: { id: 'mon_1', name: 'Payments API' } }],
      },
    ],
    maintenance: [],
    histories: new Map([['mon_1', history]]),
    fetchedAt: new Date('2030-01-01T10:00:05.000Z'),
  };
}

let directory: string;
const file = () => path.join(directory, SNAPSHOT_FILE_NAME);

beforeEach(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'porchlight-snapshot-'));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe('the saved snapshot', () => {
  it('comes back as it was saved, with its original time', async () => {
    await snapshotFile(directory).save(OWNER, snapshot());
    const result = await snapshotFile(directory).load(OWNER);
    if (!('snapshot' in result)) throw new Error(`not loaded: ${JSON.stringify(result)}`);
    const loaded = result.snapshot;
    expect(loaded.fetchedAt.toISOString()).toBe('2030-01-01T10:00:05.000Z');
    expect(loaded.incidents).toEqual(snapshot().incidents);
    expect(loaded.pages).toEqual(snapshot().pages);
    expect(loaded.organization).toEqual(snapshot().organization);
    expect(loaded.histories.get('mon_1')).toEqual(history);
    expect(loaded.monitors[0]).toMatchObject({ id: 'mon_1', name: 'Payments API', currentStatus: 'down', lastLatency: 812 });
  });

  it('holds no secret: neither the key nor where and how monitors are checked', async () => {
    await snapshotFile(directory).save(OWNER, snapshot());
    const text = await readFile(file(), 'utf8');
    for (const secret of ['hunter2', 's3cret', 'check-secret', 'p4ss', 'payments.internal']) expect(text).not.toContain(secret);
    expect((await stat(file())).mode & 0o077).toBe(0);
  });

  it('is replaced atomically: no temporary file is left behind', async () => {
    await snapshotFile(directory).save(OWNER, snapshot());
    await snapshotFile(directory).save(OWNER, { ...snapshot(), fetchedAt: new Date('2030-01-01T10:01:00.000Z') });
    expect(await readdir(directory)).toEqual([SNAPSHOT_FILE_NAME]);
    const result = await snapshotFile(directory).load(OWNER);
    expect('snapshot' in result && result.snapshot.fetchedAt.toISOString()).toBe('2030-01-01T10:01:00.000Z');
  });

  it('is missing, not an error, on a first start', async () => {
    expect(await snapshotFile(path.join(directory, 'nothing-here')).load(OWNER)).toEqual({ missing: true });
  });

  it.each([
    ['truncated', async () => (await readFile(file(), 'utf8')).slice(0, 200), /not valid JSON/],
    ['garbage', async () => '\u0000\u0001 not json at all', /not valid JSON/],
    ['of another version', async () => JSON.stringify({ ...JSON.parse(await readFile(file(), 'utf8')), version: 2 }), /not a snapshot this version can read/],
    ['with a bad record', async () => JSON.stringify({ ...JSON.parse(await readFile(file(), 'utf8')), incidents: [{ id: 1 }] }), /not a snapshot this version can read/],
  ])('is ignored, with its reason, when %s', async (_case, corrupt, reason) => {
    await snapshotFile(directory).save(OWNER, snapshot());
    await writeFile(file(), await corrupt());
    const result = await snapshotFile(directory).load(OWNER);
    expect(result).toEqual({ ignored: expect.stringMatching(reason) });
  });

  it('is ignored when written for another API or key', async () => {
    await snapshotFile(directory).save(OWNER, snapshot());
    expect(await snapshotFile(directory).load('https://other.example.test/api/v1 fedcba9876543210')).toEqual({ ignored: 'written for another API or key' });
  });

  it('is neither written nor read past its size bound', async () => {
    const huge = { ...snapshot(), incidents: [{ ...snapshot().incidents[0]!, title: 'x'.repeat(MAX_SNAPSHOT_BYTES) }] };
    await expect(snapshotFile(directory).save(OWNER, huge)).rejects.toThrow(/larger than/);
    await writeFile(file(), Buffer.alloc(MAX_SNAPSHOT_BYTES + 1, 0x20));
    expect(await snapshotFile(directory).load(OWNER)).toEqual({ ignored: expect.stringMatching(/larger than/) });
  });
});
