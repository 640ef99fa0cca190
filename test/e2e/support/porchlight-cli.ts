/** Runs the `porchlight` command as a person would: its launcher in a fresh process, from the repository root. */
import { execFile } from 'node:child_process';
import path from 'node:path';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

const root = path.resolve(import.meta.dirname, '../../..');
const launcher = path.join(root, 'src/cli/porchlight.mjs');

/** `env` is the whole environment besides PATH: nothing leaks in from the test's own. */
export function runPorchlight(args: readonly string[], env: Record<string, string>, node = process.execPath): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(node, [launcher, ...args], { cwd: root, env: { PATH: process.env.PATH ?? '', ...env }, timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr }),
    );
  });
}
