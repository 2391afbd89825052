import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A real HTTP server that serves the test documents, on a loopback address the test chooses, and
 * records every request: how many bytes it wrote and whether the client closed the connection
 * before the end (an oversized body must be cut off, not read).
 */
export type Route =
  /** `paceMs`: written 16 KiB at a time, this long apart (a slow partner, fetches in flight). */
  | { kind: 'bytes'; body: Buffer; contentType?: string; paceMs?: number }
  | { kind: 'redirect'; location: string; status?: number }
  | { kind: 'status'; status: number }
  /** `total` bytes of `fill`, in 64 KiB writes that wait for the client to take them. */
  | { kind: 'stream'; total: number; fill: Buffer; contentLength?: boolean }
  /** No answer until `until` gives the route to answer with (a fetch held in flight). */
  | { kind: 'held'; until: Promise<Route> };

export interface Served {
  path: string;
  /** When the request arrived (ms), and when its connection closed. */
  at: number;
  endedAt?: number;
  bytesWritten: number;
  /** The client closed the connection before the whole body was written. */
  cutOff: boolean;
  done: Promise<void>;
}

export interface DocumentServer {
  readonly origin: string;
  readonly requests: Served[];
  route(path: string, route: Route): string;
  close(): Promise<void>;
}

export async function startDocumentServer(host = '127.0.0.1'): Promise<DocumentServer> {
  const routes = new Map<string, Route>();
  const requests: Served[] = [];
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0]!;
    let finish!: () => void;
    const served: Served = {
      path,
      at: Date.now(),
      bytesWritten: 0,
      cutOff: false,
      done: new Promise((resolve) => (finish = resolve)),
    };
    requests.push(served);
    response.on('close', () => {
      served.endedAt = Date.now();
      served.cutOff = !response.writableFinished;
      finish();
    });
    respond(routes.get(path), response, served);
  });

  function respond(route: Route | undefined, response: ServerResponse, served: Served) {
    if (route === undefined) return answer(response, 404, Buffer.from('not found'));
    if (route.kind === 'held') {
      void route.until.then((next) => {
        if (!response.destroyed) respond(next, response, served);
      });
      return;
    }
    if (route.kind === 'status') return answer(response, route.status, Buffer.from('no'));
    if (route.kind === 'redirect') {
      response.writeHead(route.status ?? 302, { location: route.location });
      return response.end();
    }
    if (route.kind === 'bytes') {
      served.bytesWritten = route.body.length;
      response.writeHead(200, {
        'content-type': route.contentType ?? 'application/octet-stream',
        'content-length': String(route.body.length),
      });
      if (route.paceMs === undefined) return response.end(route.body);
      const { body, paceMs } = route;
      let at = 0;
      const next = () => {
        if (response.destroyed) return;
        if (at >= body.length) return response.end();
        response.write(body.subarray(at, at + 16 * 1024));
        at += 16 * 1024;
        setTimeout(next, paceMs);
      };
      return next();
    }
    response.writeHead(200, {
      'content-type': 'image/png',
      ...(route.contentLength === true ? { 'content-length': String(route.total) } : {}),
    });
    const piece = Buffer.alloc(64 * 1024);
    route.fill.copy(piece);
    const pump = () => {
      while (served.bytesWritten < route.total && !response.destroyed) {
        const size = Math.min(piece.length, route.total - served.bytesWritten);
        served.bytesWritten += size;
        if (!response.write(size === piece.length ? piece : piece.subarray(0, size))) {
          response.once('drain', pump);
          return;
        }
      }
      if (!response.destroyed) response.end();
    };
    pump();
  }
  server.keepAliveTimeout = 1;
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://${host}:${port}`;
  return {
    origin,
    requests,
    route(path, route) {
      // Served whatever the query (a signed link's signature), which the URL keeps.
      routes.set(path.split('?')[0]!, route);
      return `${origin}${path}`;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function answer(response: ServerResponse, status: number, body: Buffer): void {
  response.writeHead(status, { 'content-type': 'text/plain', 'content-length': String(body.length) });
  response.end(body);
}
