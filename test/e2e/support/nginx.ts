/**
 * nginx on loopback serving a static export with the configuration the docs publish
 * (docs/static-export.nginx.conf), only paths, names and the port swapped. Debian: apt-get install nginx.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { copyFile, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { freePort } from '../../../bench/lib/free-port.ts';
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../../..');
/** Debian puts it in /usr/sbin, which is not on every user's PATH. */
const nginxBinary = process.env.NGINX_PATH ?? (existsSync('/usr/sbin/nginx') ? '/usr/sbin/nginx' : 'nginx');

export interface NginxSite {
  /** The export served at the root (the main host's tree). */
  dist: string;
  /** The custom domain's name, served from dist/domains/<domain>. */
  domain: string;
  /** The folder whose `status/` subfolder holds the export made with --base-path /status. */
  www: string;
  /** Host name the sub-path variant is served on. */
  wwwHost: string;
}

export interface RunningNginx {
  port: number;
  config: string;
  stop(): Promise<void>;
}

export async function startNginx(site: NginxSite): Promise<RunningNginx> {
  const port = await freePort();
  const published = await readFile(path.join(root, 'docs/static-export.nginx.conf'), 'utf8');
  const servers = published
    .replaceAll('listen 80;', `listen 127.0.0.1:${port};`)
    .replaceAll('/srv/dist-status/domains/status.acme.com', path.join(site.dist, 'domains', site.domain))
    .replaceAll('status.acme.com', site.domain)
    .replaceAll('/srv/dist-status', site.dist)
    .replaceAll('/srv/www', site.www)
    .replaceAll('www.example.com', site.wwwHost);
  return runNginx(servers, port);
}

/** nginx on loopback with these server blocks; `port` is a plain-HTTP port they listen on (to know it is up). */
export async function runNginx(servers: string, port: number): Promise<RunningNginx> {
  const dir = await mkdtemp(path.join(tmpdir(), 'porchlight-nginx-'));
  // `include mime.types` is relative to the main file's folder, as /etc/nginx/nginx.conf's is.
  await copyFile('/etc/nginx/mime.types', path.join(dir, 'mime.types'));
  const config = `worker_processes 1; daemon off; pid ${dir}/nginx.pid; error_log ${dir}/error.log;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path ${dir}; proxy_temp_path ${dir}; fastcgi_temp_path ${dir}; uwsgi_temp_path ${dir}; scgi_temp_path ${dir};
${servers}
}
`;
  await writeFile(path.join(dir, 'nginx.conf'), config);
  // -e: not even the start-up messages go to the system's log folder (unwritable for most users).
  const child: ChildProcess = spawn(nginxBinary, ['-e', path.join(dir, 'error.log'), '-c', path.join(dir, 'nginx.conf')], { stdio: ['ignore', 'pipe', 'pipe'] });
  const errors: string[] = [];
  child.stderr?.on('data', (chunk: Buffer) => errors.push(chunk.toString()));
  child.once('error', (error) => errors.push(error.message));
  for (let attempt = 0; attempt < 100; attempt += 1) {
    if (child.exitCode !== null || errors.some((line) => line.includes('ENOENT'))) break;
    try {
      await fetch(`http://127.0.0.1:${port}/`, { redirect: 'manual' });
      return {
        port,
        config,
        async stop() {
          if (child.exitCode !== null) return;
          child.kill('SIGTERM');
          await once(child, 'exit');
        },
      };
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  child.kill('SIGKILL');
  throw new Error(`nginx did not start (the browser tests need it: apt-get install nginx):\n${errors.join('')}`);
}
