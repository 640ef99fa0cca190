import { execFile } from 'node:child_process';
import { elapsedMs, type CheckOutcome } from './check-types.ts';
import { errorCode, timeoutMessage } from './describe-network-error.ts';
import { isPermissionFailure, isSafePingHost, isUnknownHost, parsePingTime, pingArgs } from './ping-output.ts';
import { FALLBACK_PORTS, tcpReachability } from './ping-fallback.ts';

export interface PingOptions {
  /** The ping executable, looked up on PATH; tests point it elsewhere. */
  binary?: string;
  /** Ports of the TCP fallback (default 443 then 80). */
  fallbackPorts?: readonly number[];
}

type PingRun =
  | { kind: 'reply'; latencyMs: number }
  | { kind: 'no-reply' }
  | { kind: 'timeout' }
  | { kind: 'unavailable' }
  | { kind: 'failed'; message: string };

/** Extra time for process start-up, so ping's own -W timeout normally ends it first. */
const PROCESS_GRACE_MS = 250;

function runPing(binary: string, host: string, timeoutSeconds: number): Promise<PingRun> {
  const start = performance.now();
  return new Promise((resolve) => {
    execFile(
      binary,
      pingArgs(host, timeoutSeconds),
      { timeout: timeoutSeconds * 1000 + PROCESS_GRACE_MS, killSignal: 'SIGKILL', windowsHide: true, env: { ...process.env, LC_ALL: 'C' } },
      (error, stdout, stderr) => {
        const output = `${stdout}\n${stderr}`;
        if (error === null) {
          resolve({ kind: 'reply', latencyMs: parsePingTime(stdout) ?? elapsedMs(start) });
          return;
        }
        const code = errorCode(error);
        // ENOENT: no ping binary; EACCES: present but not executable for this user.
        if (code === 'ENOENT' || code === 'EACCES' || isPermissionFailure(stderr)) resolve({ kind: 'unavailable' });
        else if (error.killed) resolve({ kind: 'timeout' });
        else if (isUnknownHost(output)) resolve({ kind: 'failed', message: 'host not found' });
        else if (error.code === 1) resolve({ kind: 'no-reply' });
        else {
          const firstLine = stderr.trim().split('\n')[0] ?? '';
          resolve({ kind: 'failed', message: `ping failed${firstLine ? `: ${firstLine.slice(0, 200)}` : ''}` });
        }
      },
    );
  });
}

/**
 * ICMP echo via the system `ping` binary (`ping -c 1 -W <timeout> host`, no shell). When the binary
 * is missing or not permitted to open ICMP sockets, falls back to tcpReachability (TCP connect to
 * 443, then 80), see ping-fallback.ts.
 */
export async function pingCheck(host: string, timeoutSeconds: number, options: PingOptions = {}): Promise<CheckOutcome> {
  if (!isSafePingHost(host)) return { status: 'down', latencyMs: 0, statusCode: null, error: 'invalid host name' };
  const start = performance.now();
  const run = await runPing(options.binary ?? 'ping', host, timeoutSeconds);
  const down = (error: string): CheckOutcome => ({ status: 'down', latencyMs: elapsedMs(start), statusCode: null, error });
  switch (run.kind) {
    case 'reply':
      return { status: 'up', latencyMs: run.latencyMs, statusCode: null, error: null };
    case 'no-reply':
      return down(`no reply within ${timeoutSeconds} s`);
    case 'timeout':
      return down(timeoutMessage(timeoutSeconds));
    case 'failed':
      return down(run.message);
    case 'unavailable':
      return tcpReachability(host, timeoutSeconds, options.fallbackPorts ?? FALLBACK_PORTS);
  }
}
