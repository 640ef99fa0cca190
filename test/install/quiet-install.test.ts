/**
 * A first install prints no engine warnings of the project's own making, on the Node that runs
 * npm here (the CI's system Node, 20, not the Node 24 npm scripts run on): `npx porchlight` is
 * quiet; README's install command (npm run on the pinned Node 24 through `npx -p node@…`) is
 * quiet; and plain `npm install` on an older Node warns only about dependencies whose engines the
 * pinned Node 24 satisfies, never about Porchlight itself. Dry runs from the npm cache, offline,
 * bounded in time.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const pinnedNode = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies.node!;
// The semver the lockfile installs: in the npm cache of any machine that installed the project.
const lockedSemver = (JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version?: string }> }).packages['node_modules/semver']?.version ?? 'latest';
// The PATH without the project's own bin folders: `npm` and `node` are the machine's, as a new user's.
const systemPath = (process.env.PATH ?? '').split(path.delimiter).filter((entry) => !entry.includes('node_modules')).join(path.delimiter);
const QUIET = ['--offline', '--no-audit', '--no-fund'];

function run(command: string, args: string[]): { status: number | null; output: string } {
  const result = spawnSync(command, args, {
    cwd: root,
    env: { ...process.env, PATH: systemPath, npm_config_update_notifier: 'false' },
    encoding: 'utf8',
    timeout: 150_000,
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

const systemNode = run('node', ['-p', 'process.version']).output.trim();

/** The `package` of each EBADENGINE warning npm printed. */
function warnedPackages(output: string): string[] {
  return [...output.matchAll(/EBADENGINE\s+package: '([^']+)'/g)].map((match) => match[1]!);
}

describe(`a quiet install on the machine's Node (${systemNode})`, () => {
  it('npx porchlight prints its own output and no engine warning', () => {
    const { status, output } = run('npx', ['--offline', 'porchlight', '--help']);
    expect(status, output).toBe(0);
    expect(output).toContain('Usage: porchlight');
    expect(output).not.toContain('EBADENGINE');
  }, 160_000);

  it(`README's install command (npm on the pinned Node ${pinnedNode}) prints no engine warning`, () => {
    const { status, output } = run('npx', ['--offline', '--yes', '-p', `node@${pinnedNode}`, '--', 'npm', 'install', '--dry-run', ...QUIET]);
    expect(status, output).toBe(0);
    expect(output).not.toContain('EBADENGINE');
  }, 160_000);

  it('plain npm install never warns about Porchlight itself, and about a dependency only where the pinned Node satisfies it', () => {
    const { status, output } = run('npm', ['install', '--dry-run', ...QUIET]);
    expect(status, output).toBe(0);
    const warned = warnedPackages(output);
    expect(warned.filter((name) => name.startsWith('porchlight@'))).toEqual([]);
    if (Number(systemNode.slice(1).split('.')[0]) >= 22) expect(warned).toEqual([]);
    // Each remaining one is a dependency that runs on the pinned Node (the one npm scripts use).
    const ranges = [...new Set([...output.matchAll(/EBADENGINE\s+required: \{ node: '([^']+)'/g)].map((match) => match[1]!))];
    if (ranges.length === 0) return;
    // semver's command line: exit 0 only when the version satisfies every range given.
    const satisfied = run('npx', ['--offline', '--yes', '-p', `semver@${lockedSemver}`, '--', 'semver', ...ranges.flatMap((range) => ['-r', range]), pinnedNode]);
    expect(satisfied.status, `${ranges.join(', ')} do not all accept ${pinnedNode}: ${satisfied.output}`).toBe(0);
  }, 300_000);
});
