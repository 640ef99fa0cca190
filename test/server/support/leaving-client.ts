/** A raw client that sends one GET for `path` and closes after `afterMs`, reading nothing. */
import net from 'node:net';

export function leaveAfter(url: string, afterMs: number, path = '/acme'): Promise<void> {
  const { port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), '127.0.0.1', () => {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: status.example.test\r\n\r\n`);
      setTimeout(() => socket.destroy(), afterMs);
    });
    socket.on('error', () => undefined);
    socket.on('close', () => resolve());
  });
}
