import net from 'node:net';
import { elapsedMs } from './check-types.ts';
import { errorCode } from './describe-network-error.ts';

/** How a TCP connection attempt ended; latencyMs is the time until that happened. */
export type TcpProbe =
  | { outcome: 'connected'; latencyMs: number }
  | { outcome: 'refused'; latencyMs: number }
  | { outcome: 'timeout'; latencyMs: number }
  | { outcome: 'error'; latencyMs: number; error: unknown };

/** Tries one TCP connection and closes it at once. Never rejects. */
export function probeTcp(host: string, port: number, timeoutMs: number): Promise<TcpProbe> {
  return new Promise((resolve) => {
    const start = performance.now();
    let socket: net.Socket;
    try {
      socket = net.connect({ host, port });
    } catch (error) {
      // Invalid ports or hosts throw synchronously.
      resolve({ outcome: 'error', latencyMs: 0, error });
      return;
    }
    let settled = false;
    const finish = (probe: TcpProbe): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(probe);
    };
    const timer = setTimeout(() => finish({ outcome: 'timeout', latencyMs: elapsedMs(start) }), timeoutMs);
    socket.once('connect', () => finish({ outcome: 'connected', latencyMs: elapsedMs(start) }));
    socket.on('error', (error) => {
      const latencyMs = elapsedMs(start);
      finish(errorCode(error) === 'ECONNREFUSED' ? { outcome: 'refused', latencyMs } : { outcome: 'error', latencyMs, error });
    });
  });
}
