/**
 * Issue 17, item 2, as it was reproduced: `npm start` (the demo) and a second organization made
 * with `npm run create-org` in the same store. The second organization cannot aim checks at this
 * machine or the cloud metadata address; the demo's own loopback monitors keep working. Refused
 * monitors are never saved, so nothing but loopback is ever contacted.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { test, expect } from './fixtures.ts';
import { logFields, startPorchlightProcess } from './support/porchlight-process.ts';

const root = path.resolve(import.meta.dirname, '../..');

async function createOrg(databasePath: string): Promise<string> {
  const { stdout } = await promisify(execFile)(path.join(root, 'node_modules/.bin/node'), ['src/service/cli/create-org.ts', 'Second tenant', 'pro'], {
    cwd: root,
    env: { ...process.env, DATABASE_PATH: databasePath },
  });
  return stdout.trim();
}

interface Answer {
  status: number;
  json: { data?: unknown; error?: { code: string; details?: { path: string }[] } };
}

async function call(apiUrl: string, key: string, method: string, route: string, body?: unknown): Promise<Answer> {
  const response = await fetch(`${apiUrl}${route}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, json: (await response.json()) as Answer['json'] };
}

test('a second organization beside the demo is held to the egress policy; the demo is not', async () => {
  const folder = await mkdtemp(path.join(tmpdir(), 'porchlight-egress-'));
  const databasePath = path.join(folder, 'porchlight.db');
  const porchlight = await startPorchlightProcess({ DATABASE_PATH: databasePath });
  try {
    const secondKey = await createOrg(databasePath);
    const apiPort = new URL(porchlight.apiUrl).port;
    const refused: [Record<string, unknown>, string][] = [
      [{ type: 'http', url: `http://127.0.0.1:${apiPort}/api/v1/organization` }, 'url'],
      [{ type: 'http', url: 'http://169.254.169.254/latest/meta-data/' }, 'url'],
      [{ type: 'http', url: 'http://localhost:22/' }, 'url'],
      [{ type: 'tcp', host: '127.0.0.1', port: 22 }, 'host'],
      [{ type: 'ping', host: '192.168.1.1' }, 'host'],
    ];
    for (const [target, field] of refused) {
      const answer = await call(porchlight.apiUrl, secondKey, 'POST', '/monitors', { name: 'Probe', active: false, ...target });
      expect(answer.status, JSON.stringify(target)).toBe(400);
      expect(answer.json.error?.code).toBe('validation_error');
      expect(answer.json.error?.details?.map((detail) => detail.path)).toEqual([field]);
    }
    expect((await call(porchlight.apiUrl, secondKey, 'GET', '/monitors')).json.data).toEqual([]);

    // The demo organization's "Public API" monitor checks this API on loopback, and still may.
    const monitors = (await call(porchlight.apiUrl, porchlight.apiKey, 'GET', '/monitors?limit=100')).json.data as { id: string; name: string }[];
    const publicApi = monitors.find((monitor) => monitor.name === 'Public API');
    expect(publicApi).toBeDefined();
    const check = await call(porchlight.apiUrl, porchlight.apiKey, 'POST', `/monitors/${publicApi?.id}/run`);
    expect(check.status).toBe(201);
    expect(check.json.data).toMatchObject({ status: 'up', statusCode: 200 });
    expect((await call(porchlight.apiUrl, porchlight.apiKey, 'POST', '/monitors', { name: 'Local', type: 'tcp', host: '127.0.0.1', port: 22, active: false })).status).toBe(201);

    expect(porchlight.output.map(logFields).some((fields) => fields?.event === 'egress' && fields.privateTargets === 'demo')).toBe(true);
  } finally {
    await porchlight.stop();
    await rm(folder, { recursive: true, force: true });
  }
});
