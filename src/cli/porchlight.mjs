#!/usr/bin/env node
/**
 * The `porchlight` command's launcher, in plain JavaScript so that any Node can start it (the
 * system Node may be 20). The CLI itself is TypeScript: it runs in-process when this Node strips
 * types (22.18+, 24), otherwise this re-runs it with the Node 24 binary the package installs
 * (the `node` dependency, in node_modules/.bin), passing arguments, stdio and exit code through.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(realpathSync(fileURLToPath(import.meta.url)));
const entry = path.join(here, 'main.ts');

if (process.features.typescript) {
  await import(pathToFileURL(entry).href);
} else {
  const root = path.resolve(here, '../..');
  const candidates = [path.join(root, 'node_modules/.bin/node'), path.join(root, 'node_modules/node/bin/node')];
  const node = candidates.find((candidate) => existsSync(candidate));
  if (!node) {
    process.stderr.write(`porchlight: needs Node >= 22.18 (this is ${process.version}); run npm install in ${root} to get the Node 24 it uses\n`);
    process.exit(2);
  }
  const result = spawnSync(node, [entry, ...process.argv.slice(2)], { stdio: 'inherit' });
  if (result.error) {
    process.stderr.write(`porchlight: could not start ${node} (${result.error.message})\n`);
    process.exit(2);
  }
  if (result.signal) process.kill(process.pid, result.signal);
  process.exit(result.status ?? 1);
}
