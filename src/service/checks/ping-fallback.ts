import { elapsedMs, type CheckOutcome } from './check-types.ts';
import { describeNetworkError, timeoutMessage } from './describe-network-error.ts';
import { probeTcp, type TcpProbe } from './probe-tcp.ts';

export const FALLBACK_PORTS: readonly number[] = [443, 80];

/**
 * Ping substitute used when the `ping` binary is absent or may not open ICMP sockets:
 * a TCP connect to port 443, then 80. The host counts as up when a port accepts the connection
 * or actively refuses it - a refusal (RST) is the host itself answering, the TCP analogue of an
 * echo reply. Latency is the time to that answer, preferring a real connect. Timeouts, unreachable
 * networks and unknown hosts are down. The timeout budget is shared evenly across the ports.
 */
export async function tcpReachability(
  host: string,
  timeoutSeconds: number,
  ports: readonly number[] = FALLBACK_PORTS,
): Promise<CheckOutcome> {
  const start = performance.now();
  const deadline = start + timeoutSeconds * 1000;
  let refused: TcpProbe | null = null;
  let failure: TcpProbe | null = null;
  for (const [index, port] of ports.entries()) {
    const remaining = deadline - performance.now();
    if (remaining <= 0) break;
    const probe = await probeTcp(host, port, remaining / (ports.length - index));
    if (probe.outcome === 'connected') return { status: 'up', latencyMs: probe.latencyMs, statusCode: null, error: null };
    if (probe.outcome === 'refused') refused ??= probe;
    else failure = probe;
  }
  if (refused) return { status: 'up', latencyMs: refused.latencyMs, statusCode: null, error: null };
  const reason =
    failure?.outcome === 'error' ? describeNetworkError(failure.error, timeoutSeconds) : timeoutMessage(timeoutSeconds);
  return {
    status: 'down',
    latencyMs: elapsedMs(start),
    statusCode: null,
    error: `${reason} (ping unavailable; tried TCP ports ${ports.join(', ')})`,
  };
}
