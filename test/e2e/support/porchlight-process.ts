/**
 * Runs the real launcher (`node src/server/main.ts`) as a child process on ephemeral ports,
 * with its own in-memory embedded API, and reads back where it listens.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { createInterface } from 'node:readline';

export interface PorchlightProcess {
  siteUrl: string;
  apiUrl: string;
  apiKey: string;
  /** Empty unless METRICS_PORT is set. */
  metricsUrl: string;
  output: string[];
  child: ChildProcess;
  /** Sends SIGTERM and waits for the exit; resolves to the exit code. */
  stop(): Promise<number | null>;
}

const root = path.resolve(import.meta.dirname, '../../..');
const nodeBinary = path.join(root, 'node_modules/.bin/node');

/** The fields of one JSON log line, or null for any other line. */
export function logFields(line: string): Record<string, unknown> | null {
  if (!line.startsWith('{')) return null;
  try {
    const parsed: unknown = JSON.parse(line);
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function stringField(fields: Record<string, unknown> | null, name: string): string | undefined {
  const value = fields?.[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

type Startup = { siteUrl: string; apiUrl: string; apiKey: string; metricsUrl: string };

function readStartup(child: ChildProcess, output: string[], givenKey: string | undefined): Promise<Startup> {
  return new Promise((resolve, reject) => {
    let metricsUrl = '';
    let siteUrl = '';
    let apiUrl = '';
    let apiKey = givenKey ?? '';
    const timer = setTimeout(() => {
      // A start that gives up must not leave the process running (and loading the machine).
      child.kill('SIGKILL');
      reject(new Error(`Porchlight did not start:\n${output.join('\n')}`));
    }, 20_000);
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      output.push(line);
      const fields = logFields(line);
      siteUrl = stringField(fields, 'siteUrl') ?? siteUrl;
      apiUrl = stringField(fields, 'apiUrl') ?? apiUrl;
      apiKey = stringField(fields, 'demoApiKey') ?? apiKey;
      metricsUrl = stringField(fields, 'metricsUrl') ?? metricsUrl;
      // The demo key line (when seeding) comes right after the API line.
      if (siteUrl && apiUrl && apiKey) {
        clearTimeout(timer);
        resolve({ siteUrl, apiUrl, apiKey, metricsUrl });
      }
    });
    createInterface({ input: child.stderr! }).on('line', (line) => output.push(line));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Porchlight exited with ${code}:\n${output.join('\n')}`));
    });
  });
}

/** `entry`: the launcher's source by default; `dist/threads/main.mjs` is what `npm start` runs. */
export async function startPorchlightProcess(env: Record<string, string> = {}, entry = 'src/server/main.ts'): Promise<PorchlightProcess> {
  const child = spawn(nodeBinary, [entry], {
    cwd: root,
    // Short cache windows so changes made through the API show within a second or two.
    env: {
      ...process.env,
      // The embedded API, unless the test names another (empty counts as unset).
      STATUS_API_URL: '',
      STATUS_API_KEY: '',
      PORT: '0',
      API_PORT: '0',
      DATABASE_PATH: ':memory:',
      CACHE_DIR: ':memory:',
      CACHE_FRESH_SECONDS: '1',
      // With push working the data is otherwise polled every 5 minutes only, and some changes
      // (a new page, a renamed monitor) send no event.
      PUSH_POLL_SECONDS: '1',
      // Many site processes cold-start against one demo key during a test run.
      RATE_LIMIT_PRO: '100000',
      PAGE_CACHE_SECONDS: '1',
      TZ: 'UTC',
      // E-mail subscriptions (on for the embedded demo) only where a test asks for them.
      SUBSCRIPTIONS: 'false',
      // The console (on for the embedded demo) likewise.
      CONSOLE: 'false',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const started = await readStartup(child, output, env.STATUS_API_KEY);
  return {
    ...started,
    output,
    child,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill('SIGTERM');
      const [code] = (await once(child, 'exit')) as [number | null];
      return code;
    },
  };
}
