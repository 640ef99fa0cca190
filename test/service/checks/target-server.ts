import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** States the switchable "/" endpoint can be put in, like a real service changing over time. */
export type TargetMode = 'up' | 'slow' | 'error' | 'wrong-body' | 'redirect-chain' | 'redirect-loop';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface TargetServer {
  url: string;
  mode: TargetMode;
  /** Every request the server received, in order. */
  received: RecordedRequest[];
  close(): Promise<void>;
}

const SLOW_MS = 5_000;

/**
 * A loopback HTTP server for check tests. Besides the switchable "/", fixed routes:
 * /hop/N redirects N more times then lands on /landed; /see-other (303), /found (302) and
 * /temporary (307) redirect to /echo; /away?to=URL redirects (302) to any URL; /big streams 3 MiB;
 * /stalled-body sends headers then never finishes; /headers sets response headers.
 */
export async function startTargetServer(): Promise<TargetServer> {
  const timers = new Set<NodeJS.Timeout>();
  const state: { mode: TargetMode } = { mode: 'up' };
  const received: RecordedRequest[] = [];

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = req.url ?? '/';
      received.push({ method: req.method ?? '', url, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      route(url, res);
    });
  });

  const redirect = (res: http.ServerResponse, status: number, location: string) => {
    res.writeHead(status, { location }).end('moved');
  };

  function route(url: string, res: http.ServerResponse): void {
    if (url.startsWith('/away?to=')) {
      redirect(res, 302, decodeURIComponent(url.slice('/away?to='.length)));
      return;
    }
    const hop = /^\/hop\/(\d+)$/.exec(url);
    if (hop?.[1] !== undefined) {
      const left = Number(hop[1]);
      redirect(res, 302, left > 1 ? `/hop/${left - 1}` : '/landed');
      return;
    }
    switch (url) {
      case '/':
        return modeRoute(res);
      case '/landed':
        res.writeHead(200, { 'content-type': 'text/plain' }).end('landed here');
        return;
      case '/loop-a':
        return redirect(res, 302, '/loop-b');
      case '/loop-b':
        return redirect(res, 302, '/loop-a');
      case '/see-other':
        return redirect(res, 303, '/echo');
      case '/found':
        return redirect(res, 302, '/echo');
      case '/temporary':
        return redirect(res, 307, '/echo');
      case '/headers':
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'x-version': '2.1.0' }).end('{"ok":true}');
        return;
      case '/big': {
        res.writeHead(200, { 'content-type': 'text/plain' });
        const chunk = 'a'.repeat(64 * 1024);
        for (let i = 0; i < 48; i++) res.write(chunk);
        res.end('TAIL-MARKER');
        return;
      }
      case '/stalled-body':
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.write('partial');
        return;
      default:
        res.writeHead(200, { 'content-type': 'text/plain' }).end('echoed');
    }
  }

  function modeRoute(res: http.ServerResponse): void {
    switch (state.mode) {
      case 'up':
        res.writeHead(200, { 'content-type': 'text/plain' }).end('status: all systems operational');
        return;
      case 'slow': {
        const timer = setTimeout(() => {
          timers.delete(timer);
          res.writeHead(200).end('finally');
        }, SLOW_MS);
        timers.add(timer);
        return;
      }
      case 'error':
        res.writeHead(500, { 'content-type': 'text/plain' }).end('internal error');
        return;
      case 'wrong-body':
        res.writeHead(200, { 'content-type': 'text/plain' }).end('maintenance page');
        return;
      case 'redirect-chain':
        return redirect(res, 301, '/hop/2');
      case 'redirect-loop':
        return redirect(res, 302, '/loop-a');
    }
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    get mode() {
      return state.mode;
    },
    set mode(mode: TargetMode) {
      state.mode = mode;
    },
    received,
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
