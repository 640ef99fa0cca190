import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { historyFile } from '../../../src/site/data/history-file.ts';
import type { MonitorHistory } from '../../../src/site/data/uptime-history.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'porchlight-history-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const history: MonitorHistory = {
  days: { '2030-01-01': { checks: 24, up: 23 } },
  headAt: '2030-01-01T23:00:00.000Z',
  headIds: ['chk_1'],
  tailAt: '2030-01-01T00:00:00.000Z',
  tailIds: ['chk_0'],
  backfillOffset: 0,
  complete: true,
  recent: [{ checkedAt: '2030-01-01T23:00:00.000Z', latency: 42 }],
};

describe('the uptime history file', () => {
  it('is readable by its owner only, and comes back as saved', async () => {
    const file = historyFile(dir);
    await file.save('api|org', new Map([['mon_1', history]]));
    expect(await readdir(dir)).toEqual(['uptime-history.json']);
    expect((await stat(path.join(dir, 'uptime-history.json'))).mode & 0o777).toBe(0o600);
    expect(await file.load('api|org')).toEqual(new Map([['mon_1', history]]));
    expect(await file.load('another owner')).toEqual(new Map());
  });

  it('keeps the counters of other zones and those kept while one is read back, and still reads a file written before them', async () => {
    const file = historyFile(dir);
    const zoned: MonitorHistory = {
      ...history,
      zoneDays: { 'Asia/Tokyo': { '2030-01-01': { checks: 15, up: 15 }, '2030-01-02': { checks: 9, up: 8 } } },
      earlier: { days: { '2029-12-31': { checks: 24, up: 24 } }, zoneDays: { 'Europe/Berlin': { '2029-12-31': { checks: 23, up: 23 } } } },
    };
    await file.save('api|org', new Map([['mon_1', zoned], ['mon_2', history]]));
    expect(await file.load('api|org')).toEqual(new Map([['mon_1', zoned], ['mon_2', history]]));
  });
});
