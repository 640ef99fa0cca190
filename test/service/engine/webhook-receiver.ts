import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** How the receiver answers a path: 200, 500, 404, or never (the socket stays open). */
export type HookMode = 'ok' | 'error' | 'gone' | 'hang';

export interface ReceivedHook {
  path: string;
  event: string;
  delivery: string;
  contentType: string;
  body: { text?: unknown; blocks?: unknown };
  at: number;
}

export interface WebhookReceiver {
  url(path: string): string;
  /** Requests answered so far, in arrival order (hung ones too). */
  received: ReceivedHook[];
  setMode(path: string, mode: HookMode): void;
  forPath(path: string): ReceivedHook[];
  close(): Promise<void>;
}

/** A loopback chat-webhook endpoint that records every POST and answers as told per path. */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const modes = new Map<string, HookMode>();
  const received: ReceivedHook[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = req.url ?? '/';
      received.push({
        path,
        event: String(req.headers['x-porchlight-event'] ?? ''),
        delivery: String(req.headers['x-porchlight-delivery'] ?? ''),
        contentType: String(req.headers['content-type'] ?? ''),
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as ReceivedHook['body'],
        at: performance.now(),
      });
      const mode = modes.get(path) ?? 'ok';
      if (mode === 'hang') return;
      const status = mode === 'ok' ? 200 : mode === 'error' ? 500 : 404;
      res.writeHead(status, { 'content-type': 'text/plain' }).end(mode === 'ok' ? 'ok' : 'no_service');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    received,
    setMode: (path, mode) => modes.set(path, mode),
    forPath: (path) => received.filter((hook) => hook.path === path),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
