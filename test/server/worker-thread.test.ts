import { describe, expect, it } from 'vitest';
import { startThread, ThreadStartError } from '../../src/server/threads/worker-thread.ts';

const worker = (name: string) => new URL(`./workers/${name}.ts`, import.meta.url);

describe('worker threads', () => {
  it('start, say what they are ready with, and stop cleanly on close', async () => {
    const thread = await startThread<{ echo: unknown }>(worker('echo-worker'), { closeMs: 50 }, 'echo');
    expect(thread.ready.echo).toEqual({ closeMs: 50 });
    let unexpected = false;
    thread.onUnexpectedExit(() => (unexpected = true));
    await thread.close();
    expect(unexpected).toBe(false);
  });

  it('carry a failed start back as a typed error with its code', async () => {
    const failure = await startThread(worker('failing-worker'), null, 'failing').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ThreadStartError);
    expect((failure as ThreadStartError).code).toBe('EADDRINUSE');
    expect((failure as ThreadStartError).message).toMatch(/EADDRINUSE/);
  });

  it('tell the launcher when they end without being asked', async () => {
    const thread = await startThread(worker('echo-worker'), {}, 'echo');
    const exited = new Promise<number>((resolve) => thread.onUnexpectedExit(resolve));
    thread.post({ type: 'exit' });
    expect(await exited).toBe(3);
  });

  it('are terminated when they do not stop within the grace period', async () => {
    const thread = await startThread(worker('echo-worker'), { ignoreClose: true }, 'stubborn');
    const started = Date.now();
    await thread.close(200);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
