import net from 'node:net';
import { runCheck, type CheckOutcome, type CheckTarget, type RunCheckOptions } from '../../../src/service/checks/run-check.ts';
import { EgressPolicy } from '../../../src/service/egress/egress-policy.ts';

/** These tests' peers listen on 127.0.0.1: the egress policy is opened, as ALLOW_PRIVATE_TARGETS does. */
export const LOCAL_EGRESS = new EgressPolicy({ allowPrivate: true });

/** runCheck with private targets allowed (every peer here is on loopback). */
export function runLocal(target: CheckTarget, options: RunCheckOptions = {}): Promise<CheckOutcome> {
  return runCheck(target, { egress: LOCAL_EGRESS, ...options });
}

export interface Listener {
  port: number;
  /** Connections accepted so far. */
  accepted: () => number;
  close: () => Promise<void>;
}

/** A TCP listener on 127.0.0.1 that accepts and immediately closes connections. */
export async function listen(): Promise<Listener> {
  let accepted = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    accepted += 1;
    sockets.add(socket);
    socket.on('error', () => {});
    socket.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    port,
    accepted: () => accepted,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A port on 127.0.0.1 that was just free, so connecting to it is refused. */
export async function closedPort(): Promise<number> {
  const listener = await listen();
  await listener.close();
  return listener.port;
}
