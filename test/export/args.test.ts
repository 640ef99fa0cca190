import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseExportArgs, UsageError } from '../../src/export/args.ts';

const cwd = '/work/project';

describe('parseExportArgs', () => {
  it('defaults to dist-status/ below the working folder, served from the root, once', () => {
    expect(parseExportArgs([], cwd)).toEqual({ outDir: path.resolve(cwd, 'dist-status'), basePath: '', watch: false, help: false });
  });

  it('reads --out, --base-path and --watch in both spellings', () => {
    expect(parseExportArgs(['--out', 'public/status', '--base-path', '/status/', '--watch'], cwd)).toEqual({
      outDir: path.resolve(cwd, 'public/status'),
      basePath: '/status',
      watch: true,
      help: false,
    });
    expect(parseExportArgs(['--out=/srv/www', '--base-path=/a/b'], cwd)).toMatchObject({ outDir: '/srv/www', basePath: '/a/b' });
    expect(parseExportArgs(['--base-path', '/'], cwd).basePath).toBe('');
  });

  it.each([
    [['--base-path', 'status'], /--base-path must be a plain path/],
    [['--base-path', '/a/../b'], /--base-path must be a plain path/],
    [['--base-path', '/a b'], /--base-path must be a plain path/],
    [['--base-path', '/%2e%2e'], /--base-path must be a plain path/],
    [['--out'], /--out needs a value/],
    [['--out', '--watch'], /--out needs a value/],
    [['--out='], /--out needs a value/],
    [['--watch=yes'], /unknown option --watch=yes/],
    [['--force'], /unknown option --force/],
    [['dist'], /unknown option dist/],
  ])('refuses %j with one line', (argv, message) => {
    expect(() => parseExportArgs(argv, cwd)).toThrow(UsageError);
    expect(() => parseExportArgs(argv, cwd)).toThrow(message);
  });
});
