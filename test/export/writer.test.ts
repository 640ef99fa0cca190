import { mkdtemp, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { assertWritable, MANIFEST_NAME, readManifest, writeExport } from '../../src/export/writer.ts';

let out: string;

beforeEach(async () => {
  out = await mkdtemp(path.join(tmpdir(), 'porchlight-writer-'));
});
afterEach(async () => {
  await rm(out, { recursive: true, force: true });
});

const files = (entries: Record<string, string>) => new Map(Object.entries(entries).map(([file, body]) => [file, Buffer.from(body)]));

/** Every file below `dir`, folder-relative, sorted. */
async function listAll(dir: string, prefix = ''): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) found.push(...(await listAll(path.join(dir, entry.name), relative)));
    else found.push(relative);
  }
  return found.sort();
}

const mtime = async (file: string) => (await stat(path.join(out, file))).mtimeMs;

describe('writeExport', () => {
  const first = { 'index.html': 'index', 'acme/index.html': 'page v1', 'acme/incidents/1/index.html': 'incident 1', '404.html': 'nf' };

  it('writes every file the first time, and a manifest of their hashes', async () => {
    const result = await writeExport(out, files(first));
    expect(result.written.sort()).toEqual(Object.keys(first).sort());
    expect(result.unchanged).toEqual([]);
    expect(await readFile(path.join(out, 'acme/incidents/1/index.html'), 'utf8')).toBe('incident 1');
    expect([...(await readManifest(out)).keys()].sort()).toEqual(Object.keys(first).sort());
    // No temporary file is left behind.
    expect(await listAll(out)).toEqual([...Object.keys(first), MANIFEST_NAME].sort());
  });

  it('with the same bytes rewrites nothing, not even the manifest', async () => {
    await writeExport(out, files(first));
    const before = await Promise.all([...Object.keys(first), MANIFEST_NAME].map(mtime));
    await new Promise((resolve) => setTimeout(resolve, 20));
    const result = await writeExport(out, files(first));
    expect(result).toEqual({ written: [], unchanged: expect.arrayContaining(Object.keys(first)), removed: [] });
    expect(await Promise.all([...Object.keys(first), MANIFEST_NAME].map(mtime))).toEqual(before);
  });

  it('rewrites exactly the changed files, deepest first, and removes those that left, with their empty folders', async () => {
    await writeExport(out, files({ ...first, 'acme/incidents/2/index.html': 'incident 2' }));
    const result = await writeExport(out, files({ ...first, 'acme/index.html': 'page v2', 'acme/incidents/3/index.html': 'incident 3' }));
    expect(result.written).toEqual(['acme/incidents/3/index.html', 'acme/index.html']);
    expect(result.removed).toEqual(['acme/incidents/2/index.html']);
    expect(await listAll(out)).not.toContain('acme/incidents/2/index.html');
    await expect(stat(path.join(out, 'acme/incidents/2'))).rejects.toThrow();
    expect(await readFile(path.join(out, 'acme/index.html'), 'utf8')).toBe('page v2');
  });

  it('never touches files it did not write', async () => {
    await writeFile(path.join(out, 'CNAME'), 'status.example.com');
    await mkdir(path.join(out, 'acme'), { recursive: true });
    await writeFile(path.join(out, 'acme/robots.txt'), 'keep');
    await writeExport(out, files(first));
    await writeExport(out, files({ 'index.html': 'index' }));
    expect(await listAll(out)).toEqual(['CNAME', MANIFEST_NAME, 'acme/robots.txt', 'index.html'].sort());
  });

  it('writes again a file that was deleted or changed behind its back', async () => {
    await writeExport(out, files(first));
    await rm(path.join(out, 'acme/index.html'));
    await writeFile(path.join(out, '404.html'), 'edited by hand');
    const result = await writeExport(out, files(first));
    expect(result.written.sort()).toEqual(['404.html', 'acme/index.html']);
  });

  it('replaces a file by a folder of the same name when an address changes shape', async () => {
    await writeExport(out, files({ 'acme/widget': 'old' }));
    await writeExport(out, files({ 'acme/widget/index.html': 'new' }));
    expect(await readFile(path.join(out, 'acme/widget/index.html'), 'utf8')).toBe('new');
  });

  it('starts afresh from an unreadable manifest', async () => {
    await writeFile(path.join(out, MANIFEST_NAME), '{not json');
    expect((await writeExport(out, files(first))).written).toHaveLength(4);
  });

  it('refuses a path that leaves the folder', async () => {
    await expect(writeExport(out, files({ '../escape.html': 'x' }))).rejects.toThrow(/outside/);
  });
});

describe('assertWritable', () => {
  it('creates the folder, and fails with the system reason where it cannot write', async () => {
    await assertWritable(path.join(out, 'new/deeper'));
    expect((await stat(path.join(out, 'new/deeper'))).isDirectory()).toBe(true);
    await writeFile(path.join(out, 'a-file'), '');
    await expect(assertWritable(path.join(out, 'a-file/below'))).rejects.toMatchObject({ code: expect.stringMatching(/ENOTDIR|EEXIST/) });
  });
});
