/**
 * Caddy (Debian's caddy, `apt-get install caddy`) on loopback, in front of a running Porchlight,
 * with the Caddyfile the docs publish (docs/custom-domains.Caddyfile). Only what a test needs is
 * added at the top of its global options: Caddy's own local CA instead of Let's Encrypt (no
 * network), free ports, a storage folder of its own, no admin endpoint.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../../../bench/lib/free-port.ts';

const root = path.resolve(import.meta.dirname, '../../..');
export const caddyBinary = process.env.CADDY_PATH ?? (existsSync('/usr/bin/caddy') ? '/usr/bin/caddy' : 'caddy');
export const publishedCaddyfile = path.join(root, 'docs/custom-domains.Caddyfile');

export interface RunningCaddy {
  httpPort: number;
  httpsPort: number;
  /** PEM of the local CA's root: the only certificate a client of the test trusts. */
  rootCertificate(): Promise<string>;
  output: string[];
  stop(): Promise<void>;
}

async function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** `upstream`: Porchlight's HOST:PORT; `statusHost`: the main host (SITE_PUBLIC_URL's). */
export async function startCaddy(options: { upstream: string; statusHost: string }): Promise<RunningCaddy> {
  const dir = await mkdtemp(path.join(tmpdir(), 'porchlight-caddy-'));
  const [httpPort, httpsPort] = [await freePort(), await freePort()];
  const published = await readFile(publishedCaddyfile, 'utf8');
  const testOptions = ['local_certs', 'skip_install_trust', 'admin off', `http_port ${httpPort}`, `https_port ${httpsPort}`, `storage file_system ${dir}/storage`];
  // The published file opens with its global options block: the test's go first inside it.
  const config = published.replace(/^\{\n/m, `{\n${testOptions.map((line) => `\t${line}\n`).join('')}`);
  if (config === published) throw new Error('the published Caddyfile no longer opens with a global options block');
  const file = path.join(dir, 'Caddyfile');
  await writeFile(file, config);
  const output: string[] = [];
  const child: ChildProcess = spawn(caddyBinary, ['run', '--config', file, '--adapter', 'caddyfile'], {
    // Caddy keeps data and config under HOME / XDG folders: all of it in the test's folder.
    env: { ...process.env, HOME: dir, XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir, PORCHLIGHT_UPSTREAM: options.upstream, STATUS_HOST: options.statusHost },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.once('error', (error) => output.push(error.message));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    await once(child, 'exit');
  };
  for (let attempt = 0; attempt < 150; attempt += 1) {
    if (child.exitCode !== null) break;
    if ((await listening(httpsPort)) && (await listening(httpPort))) {
      return {
        httpPort,
        httpsPort,
        output,
        rootCertificate: () => readFile(path.join(dir, 'storage/pki/authorities/local/root.crt'), 'utf8'),
        stop,
      };
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await stop();
  throw new Error(`caddy did not start:\n${output.join('')}`);
}
