import net from 'node:net';

export interface OpenPort {
  close(): Promise<void>;
}

/** Listens on 127.0.0.1:`port` (a port a monitor watches), accepting and closing connections. */
export async function openPort(port: number): Promise<OpenPort> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.end();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return {
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
