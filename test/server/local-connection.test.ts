import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { localConnectionPath, readLocalConnection, removeLocalConnection, writeLocalConnection } from '../../src/server/local-connection.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'porchlight-local-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const record = { apiUrl: 'http://127.0.0.1:4322/api/v1', apiKey: 'pl_demo', siteUrl: 'http://127.0.0.1:4321', pid: 100 };

describe('local API record for the CLI', () => {
  it('is written readable by its owner only and read back', async () => {
    await writeLocalConnection(dir, record);
    expect((await stat(localConnectionPath(dir))).mode & 0o777).toBe(0o600);
    expect(await readLocalConnection(dir)).toEqual(record);
  });

  it('is removed only by the process that wrote it', async () => {
    await writeLocalConnection(dir, record);
    await removeLocalConnection(dir, 200);
    expect(await readLocalConnection(dir)).toEqual(record);
    await removeLocalConnection(dir, 100);
    expect(await readLocalConnection(dir)).toBeNull();
  });

  it('reads nothing from a missing, malformed or in-memory record', async () => {
    expect(await readLocalConnection(dir)).toBeNull();
    expect(await writeLocalConnection(':memory:', record)).toBeNull();
    await writeLocalConnection(dir, record);
    const file = localConnectionPath(dir);
    await writeFile(file, '{"apiUrl": 1}');
    expect(await readLocalConnection(dir)).toBeNull();
    expect(await readFile(file, 'utf8')).toBe('{"apiUrl": 1}');
    await writeFile(file, JSON.stringify({ ...record, pid: 1.5 }));
    expect(await readLocalConnection(dir)).toBeNull();
    await writeFile(file, JSON.stringify({ ...record, apiKey: '' }));
    expect(await readLocalConnection(dir)).toBeNull();
    // Fields it does not know are dropped, not passed on.
    await writeFile(file, JSON.stringify({ ...record, extra: 'x' }));
    expect(await readLocalConnection(dir)).toEqual(record);
  });
});
