/**
 * Graceful close of an HTTP server: stop accepting at once, let requests in flight finish,
 * close keep-alive connections as soon as they fall idle, and cut whatever is left at the deadline.
 */
import type { Server } from 'node:http';

export async function drain(server: Server, deadlineMs: number): Promise<{ forced: boolean }> {
  if (!server.listening) return { forced: false };
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  // A connection that finished its response is idle until its client sends again: close it then.
  const sweep = setInterval(() => server.closeIdleConnections(), 50);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'deadline'>((resolve) => {
    timer = setTimeout(() => resolve('deadline'), deadlineMs);
  });
  const outcome = await Promise.race([closed.then(() => 'closed' as const), deadline]);
  clearInterval(sweep);
  clearTimeout(timer);
  if (outcome === 'deadline') {
    server.closeAllConnections();
    await closed;
  }
  return { forced: outcome === 'deadline' };
}
