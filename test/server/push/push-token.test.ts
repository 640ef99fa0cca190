import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PUSH_TOKEN_FILE, PUSH_TOKEN_PATTERN, pushToken } from '../../../src/server/push/push-token.ts';

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'porchlight-token-'));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe('the push token', () => {
  it('is made once, unguessable, kept private in CACHE_DIR, and the same on the next start', async () => {
    const cacheDir = path.join(directory, 'cache');
    const first = await pushToken(undefined, cacheDir);
    expect(first).toMatch(PUSH_TOKEN_PATTERN);
    expect(Buffer.from(first, 'base64url')).toHaveLength(32);
    expect(await pushToken(undefined, cacheDir)).toBe(first);
    expect((await stat(path.join(cacheDir, PUSH_TOKEN_FILE))).mode & 0o077).toBe(0);
    expect(await pushToken(undefined, path.join(directory, 'other'))).not.toBe(first);
  });

  it('is the configured one when PUSH_TOKEN is set, and nothing is written', async () => {
    const configured = 'x'.repeat(40);
    expect(await pushToken(configured, directory)).toBe(configured);
    await expect(readFile(path.join(directory, PUSH_TOKEN_FILE))).rejects.toThrow();
  });

  it('replaces a kept token that is not one', async () => {
    await writeFile(path.join(directory, PUSH_TOKEN_FILE), 'short\n');
    const token = await pushToken(undefined, directory);
    expect(token).toMatch(PUSH_TOKEN_PATTERN);
    expect((await readFile(path.join(directory, PUSH_TOKEN_FILE), 'utf8')).trim()).toBe(token);
  });

  it('is new on each start with CACHE_DIR=:memory:', async () => {
    expect(await pushToken(undefined, ':memory:')).not.toBe(await pushToken(undefined, ':memory:'));
  });
});
