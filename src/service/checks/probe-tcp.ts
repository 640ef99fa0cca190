import net from 'node:net';
import { elapsedMs } from './check-types.ts';
import { errorCode } from './describe-network-error.ts';

/** How a TCP connection attempt ended; latencyMs is the time until that happened. */
export type TcpProbe =
  | { outcome: 'connected'; latencyMs: number }
  | { outcome: 'refused'; latencyMs: number }
  | { outcome: 'timeout'; latencyMs: number }
  | { outcome: 'error'; latencyMs: number; error: unknown };

/** Where to connect for a host and port (the egress policy: the host and a lookup answering with checked addresses), or throws. */
export type AddressOf = (host: string, port: number) => Promise<{ host: string; lookup?: net.TcpNetConnectOpts['lookup'] }>;

/**
 * Tries one TCP connection and closes it at once. Never rejects. With `addressOf`, the host is
 * resolved (and judged) by it first and the connection goes only where it says; the timeout and
 * the latency cover that step, as they cover DNS otherwise.
 */
export function probeTcp(host: string, port: number, timeoutMs: number, addressOf?: AddressOf): Promise<TcpProbe> {
  return new Promise((resolve) => {
    const start = performance.now();
    let socket: net.Socket | null = null;
    let settled = false;
    const finish = (probe: TcpProbe): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket?.destroy();
      resolve(probe);
    };
    const timer = setTimeout(() => finish({ outcome: 'timeout', latencyMs: elapsedMs(start) }), timeoutMs);
    const connect = (target: { host: string; lookup?: net.TcpNetConnectOpts['lookup'] }): void => {
      if (settled) return;
      try {
        socket = net.connect({ ...target, port });
      } catch (error) {
        // Invalid ports or hosts throw synchronously.
        finish({ outcome: 'error', latencyMs: 0, error });
        return;
      }
      socket.once('connect', () => finish({ outcome: 'connected', latencyMs: elapsedMs(start) }));
      socket.on('error', (error) => {
        const latencyMs = elapsedMs(start);
        finish(errorCode(error) === 'ECONNREFUSED' ? { outcome: 'refused', latencyMs } : { outcome: 'error', latencyMs, error });
      });
    };
    if (!addressOf) {
      connect({ host });
      return;
    }
    addressOf(host, port).then(connect, (error: unknown) => finish({ outcome: 'error', latencyMs: elapsedMs(start), error }));
  });
}
