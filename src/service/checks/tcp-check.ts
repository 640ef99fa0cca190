import type { CheckOutcome } from './check-types.ts';
import { describeNetworkError, timeoutMessage } from './describe-network-error.ts';
import { probeTcp, type AddressOf } from './probe-tcp.ts';

/** Up when a TCP connection to host:port is established within the timeout; latency is the connect time. */
export async function tcpCheck(host: string, port: number, timeoutSeconds: number, addressOf?: AddressOf): Promise<CheckOutcome> {
  const probe = await probeTcp(host, port, timeoutSeconds * 1000, addressOf);
  switch (probe.outcome) {
    case 'connected':
      return { status: 'up', latencyMs: probe.latencyMs, statusCode: null, error: null };
    case 'refused':
      return { status: 'down', latencyMs: probe.latencyMs, statusCode: null, error: 'connection refused' };
    case 'timeout':
      return { status: 'down', latencyMs: probe.latencyMs, statusCode: null, error: timeoutMessage(timeoutSeconds) };
    case 'error':
      return { status: 'down', latencyMs: probe.latencyMs, statusCode: null, error: describeNetworkError(probe.error, timeoutSeconds) };
  }
}
