import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { lowerThreadPriority, tasksNamed } from '../../src/server/threads/thread-priority.ts';

/** A task's nice value: field 19 of its stat line, counted after the parenthesised name. */
function niceOf(task: number | 'self'): number {
  const stat = readFileSync(task === 'self' ? '/proc/thread-self/stat' : `/proc/self/task/${task}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
}

let worker: Worker | null = null;

afterEach(async () => {
  await worker?.terminate();
  worker = null;
});

describe('lowerThreadPriority', () => {
  it('lowers the named worker thread alone, found by its task name (Linux)', async () => {
    worker = new Worker('setInterval(() => {}, 1000); require("node:worker_threads").parentPort.postMessage("up")', { eval: true, name: 'porchlight-test-background' });
    await new Promise((resolve) => worker!.once('message', resolve));
    const before = niceOf('self');
    expect(tasksNamed('porchlight-test-background')).toHaveLength(1);
    expect(lowerThreadPriority('porchlight-test-background', 10)).toBe(1);
    expect(niceOf(tasksNamed('porchlight-test-background')[0]!)).toBe(10);
    expect(niceOf('self')).toBe(before);
    expect(lowerThreadPriority('no-such-thread', 10)).toBe(0);
  });
});
