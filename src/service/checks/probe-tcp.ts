import net from 'node:net';
import { elapsedMs } from './check-types.ts';
import { errorCode } from './describe-network-error.ts';

/** How a TCP connection attempt ended; latencyMs is the time until that happened. */
export type TcpProbe =
  | { outcome: 'connected'; latencyMs: number }
  | { outcome: 'refused'; latencyMs: number }
  | { outcome: 'timeout'; latencyMs: number }
  | { outcome: 'error'; latencyMs: number; error: unknown };

/** Turns a host and port into the one address to connect to (the egress policy), or throws. */
export type AddressOf = (host: string, port: number) => Promise<string>;

/**
 * Tries one TCP connection and closes it at once. Never rejects. With `addressOf`, the host is
 * resolved (and judged) by it first and the connection goes to the address it returns; the
 * timeout and the latency cover that step, as they cover DNS otherwise.
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
    const connect = (address: string): void => {
      if (settled) return;
      try {
        socket = net.connect({ host: address, port });
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
      connect(host);
      return;
    }
    addressOf(host, port).then(connect, (error: unknown) => finish({ outcome: 'error', latencyMs: elapsedMs(start), error }));
  });
}
