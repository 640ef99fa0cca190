import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { freePort } from '../../bench/lib/free-port.ts';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startService } from '../../src/service/index.ts';
import { Client, dataOf } from './helpers.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const PATH = [join(ROOT, 'node_modules', '.bin'), process.env.PATH ?? ''].join(delimiter);

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a .ts entry point with the project's Node (node_modules/.bin first on PATH). */
function runNode(script: string, args: string[], env: Record<string, string>, stopAfterMs?: number): Promise<Run> {
  return new Promise((done, fail) => {
    const child = spawn('node', [script, ...args], { cwd: ROOT, env: { ...process.env, PATH, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
    if (stopAfterMs !== undefined) {
      const timer = setInterval(() => {
        if (stdout.includes('status page "internal"')) {
          clearInterval(timer);
          child.kill('SIGTERM');
        }
      }, 25);
      setTimeout(() => {
        clearInterval(timer);
        child.kill('SIGKILL');
      }, stopAfterMs).unref();
    }
  });
}

describe('create-org CLI', () => {
  const folder = mkdtempSync(join(tmpdir(), 'porchlight-cli-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('prints only a working API key', async () => {
    const databasePath = join(folder, 'sub', 'cli.db');
    const run = await runNode('src/service/cli/create-org.ts', ['Acme Widgets', 'pro'], { DATABASE_PATH: databasePath });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^pl_[A-Za-z0-9_-]{32}\n$/);
    const service = await startService({ databasePath, log: () => undefined });
    const organization = dataOf(await new Client(service.url, run.stdout.trim()).get('/organization'));
    expect(organization).toMatchObject({ name: 'Acme Widgets', plan: 'pro', slug: 'acme-widgets' });
    await service.close();
  });

  it('defaults to the free plan and rejects a bad plan with usage on stderr', async () => {
    const databasePath = join(folder, 'cli2.db');
    const free = await runNode('src/service/cli/create-org.ts', ['Solo'], { DATABASE_PATH: databasePath });
    expect(free.code).toBe(0);
    const bad = await runNode('src/service/cli/create-org.ts', ['Solo', 'enterprise'], { DATABASE_PATH: databasePath });
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toContain('usage: create-org');
    const service = await startService({ databasePath, log: () => undefined });
    expect(dataOf(await new Client(service.url, free.stdout.trim()).get('/organization'))).toMatchObject({ plan: 'free' });
    expect(await service.store.organizations.count()).toBe(1);
    await service.close();
  });
});

describe('npm run api entry point', () => {
  const folder = mkdtempSync(join(tmpdir(), 'porchlight-main-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('stops with one line naming a bad variable', async () => {
    for (const [name, value] of [['PORT', 'eighty'], ['SEED_DEMO', 'maybe'], ['PORT', '70000']] as const) {
      const run = await runNode('src/service/main.ts', [], { [name]: value, DATABASE_PATH: join(folder, 'x.db') });
      expect(run.code).toBe(1);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).toContain(name);
      expect(run.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it('stops with one line for a malformed DATABASE_URL or an unreachable server, never repeating the password', async () => {
    const port = await freePort();
    const cases = [
      ['postgres://u:hunter2@db:port/x', 'Invalid setting DATABASE_URL: has a port that is not a number from 1 to 65535'],
      [`postgres://u:hunter2@127.0.0.1:${port}/x`, `Porchlight API failed to start: cannot reach the PostgreSQL server at 127.0.0.1:${port} (DATABASE_URL): ECONNREFUSED`],
    ] as const;
    for (const [url, line] of cases) {
      const run = await runNode('src/service/main.ts', [], { PORT: '0', DATABASE_URL: url, DATABASE_PATH: join(folder, 'never', 'x.db') });
      expect(run.code).toBe(1);
      expect(run.stderr.trim()).toBe(line.trim());
      expect(run.stderr + run.stdout).not.toContain('hunter2');
      expect(existsSync(join(folder, 'never'))).toBe(false);
    }
  });

  it('starts, prints URL, demo key and pages, and exits cleanly on SIGTERM', async () => {
    const run = await runNode('src/service/main.ts', [], { PORT: '0', DATABASE_PATH: join(folder, 'data', 'demo.db') }, 10_000);
    expect(run.stdout).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+\/api\/v1/);
    expect(run.stdout).toMatch(/pl_[A-Za-z0-9_-]{32}/);
    expect(run.stdout).toContain('status page "acme"');
    expect(run.code).toBe(0);
  });
});
