/**
 * The API alone in its own process (`node src/service/main.ts`, as `npm run api` runs it), with
 * demo data in a SQLite file, so a test can stop it like a real outage.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { createInterface } from 'node:readline';

export interface ApiProcess {
  url: string;
  key: string;
  stop(): Promise<void>;
}

const root = path.resolve(import.meta.dirname, '../../..');

export async function startApiProcess(databasePath: string, env: Record<string, string> = {}): Promise<ApiProcess> {
  const child = spawn(path.join(root, 'node_modules/.bin/node'), ['src/service/main.ts'], {
    cwd: root,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATABASE_PATH: databasePath, SEED_DEMO: 'true', SCHEDULER: 'false', RATE_LIMIT_PRO: '100000', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const started = await new Promise<{ url: string; key: string }>((resolve, reject) => {
    let url = '';
    const timer = setTimeout(() => reject(new Error(`the API did not start:\n${lines.join('\n')}`)), 20_000);
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream }).on('line', (line) => {
        lines.push(line);
        url = /listening on (\S+)/.exec(line)?.[1] ?? url;
        const key = /API key \(demo only\): (\S+)/.exec(line)?.[1];
        if (url && key) {
          clearTimeout(timer);
          resolve({ url, key });
        }
      });
    }
    child.once('exit', (code) => reject(new Error(`the API exited with ${code}:\n${lines.join('\n')}`)));
  });
  return {
    ...started,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGKILL');
      await once(child, 'exit');
    },
  };
}
