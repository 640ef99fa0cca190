/**
 * Real child processes for crash tests: started with `node_modules/.bin/node SCRIPT`, ready when
 * they print `ready VALUE` on stdout (a test-support script's convention), so a test can SIGKILL
 * them at a moment it chooses. Loopback only, bounded in time.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

export interface ReadyProcess {
  child: ChildProcess;
  /** What the process printed after `ready `. */
  ready: string;
  exited: Promise<void>;
}

/** Starts `script` with only PATH and `env`; rejects with its stderr if it exits or is not ready in 30 s. */
export async function startReadyProcess(script: string, env: Record<string, string>, what: string, track: ChildProcess[]): Promise<ReadyProcess> {
  const child = spawn(join('node_modules', '.bin', 'node'), [script], { env: { PATH: process.env.PATH, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  track.push(child);
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ready = await new Promise<string>((resolve, reject) => {
    let stdout = '';
    const timer = setTimeout(() => reject(new Error(`${what} not ready in 30 s: ${stderr}`)), 30_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const line = /^ready (\S+)$/m.exec(stdout);
      if (line) {
        clearTimeout(timer);
        resolve(line[1]!);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited (${code}) before it was ready: ${stderr}`));
    });
  });
  return { child, ready, exited };
}

/** Polls `condition` every `stepMs` until it holds; throws naming `what` after `timeoutMs`. */
export async function until(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 60_000, stepMs = 100): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, stepMs));
  }
}
