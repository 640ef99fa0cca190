import { mkdtemp, readdir, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFileAtomically } from '../../../src/site/data/atomic-file.ts';

describe('writeFileAtomically', () => {
  it('replaces the file whole, in a folder it makes, with the mode asked for and no temporary left', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'porchlight-atomic-'));
    const target = path.join(dir, 'nested', 'file.json');
    await writeFileAtomically(target, 'one');
    await writeFileAtomically(target, 'two', { mode: 0o600 });
    expect(await readFile(target, 'utf8')).toBe('two');
    expect((await stat(target)).mode & 0o777).toBe(0o600);
    expect(await readdir(path.dirname(target))).toEqual(['file.json']);
  });

  it('leaves no temporary file behind when the rename fails', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'porchlight-atomic-'));
    // A folder where the file should go: the rename over it fails.
    await writeFileAtomically(path.join(dir, 'taken', 'inner'), 'x');
    await expect(writeFileAtomically(path.join(dir, 'taken'), 'y')).rejects.toThrow();
    expect(await readdir(dir)).toEqual(['taken']);
  });
});
