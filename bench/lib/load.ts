/**
 * One bounded load run from a separate process on loopback: wrk when installed (C, so the load
 * generator is not the bottleneck), otherwise autocannon.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import path from 'node:path';
import { root } from './processes.ts';

const exec = promisify(execFile);

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
  requests: number;
}

/** wrk's durations: "812.00us", "1.20ms", "2.01s". */
function milliseconds(text: string): number {
  const match = /([\d.]+)(us|ms|s|m)/.exec(text);
  if (!match) return Number.NaN;
  const value = Number(match[1]);
  return match[2] === 'us' ? value / 1000 : match[2] === 'ms' ? value : match[2] === 's' ? value * 1000 : value * 60_000;
}

export function parseWrk(output: string): LoadResult {
  const errors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output);
  return {
    requestsPerSecond: Number(/Requests\/sec:\s+([\d.]+)/.exec(output)?.[1]),
    p50Ms: milliseconds(/\s50%\s+(\S+)/.exec(output)?.[1] ?? ''),
    p99Ms: milliseconds(/\s99%\s+(\S+)/.exec(output)?.[1] ?? ''),
    errors: errors ? errors.slice(1).reduce((sum, count) => sum + Number(count), 0) : 0,
    non2xx: Number(/Non-2xx or 3xx responses: (\d+)/.exec(output)?.[1] ?? 0),
    requests: Number(/(\d+) requests in/.exec(output)?.[1] ?? 0),
  };
}

let wrkAvailable: boolean | undefined;

async function hasWrk(): Promise<boolean> {
  if (wrkAvailable === undefined) {
    wrkAvailable = await exec('wrk', ['--version']).then(() => true, (error: { stdout?: string }) => Boolean(error.stdout?.includes('wrk')));
  }
  return wrkAvailable;
}

export async function loadGenerator(): Promise<string> {
  return (await hasWrk()) ? 'wrk 4 (1 thread)' : 'autocannon 9';
}

export async function runLoad(url: string, connections: number, seconds: number): Promise<LoadResult> {
  if (await hasWrk()) {
    const { stdout } = await exec('wrk', ['-t1', `-c${connections}`, `-d${seconds}s`, '--latency', '-H', 'Accept-Encoding: gzip', url], { timeout: (seconds + 30) * 1000 });
    return parseWrk(stdout);
  }
  const bin = path.join(root, 'node_modules/.bin/autocannon');
  const { stdout } = await exec(bin, ['-c', String(connections), '-d', String(seconds), '-j', '-H', 'Accept-Encoding=gzip', url], { timeout: (seconds + 30) * 1000, maxBuffer: 16 * 1024 * 1024 });
  const report = JSON.parse(stdout) as { requests: { average: number; total: number }; latency: { p50: number; p99: number }; errors: number; timeouts: number; non2xx: number };
  return {
    requestsPerSecond: report.requests.average,
    p50Ms: report.latency.p50,
    p99Ms: report.latency.p99,
    errors: report.errors + report.timeouts,
    non2xx: report.non2xx,
    requests: report.requests.total,
  };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
