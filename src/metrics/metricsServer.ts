import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The listener of METRICS_PORT: `GET /metrics` and nothing else, so that Prometheus can reach it
 * on a port the load balancer does not expose. It serves one process's registry, or, in a
 * cluster's primary, every worker's aggregated.
 */
export type Exposition = () => Promise<{ contentType: string; body: string }>;

export async function startMetricsServer(
  exposition: Exposition,
  port: number,
  host: string,
): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((request, response) => {
    if (request.method !== 'GET' || (request.url ?? '').split('?')[0] !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    exposition().then(
      ({ contentType, body }) => response.writeHead(200, { 'content-type': contentType }).end(body),
      () => response.writeHead(500, { 'content-type': 'text/plain' }).end('metrics unavailable\n'),
    );
  });
  server.requestTimeout = 10_000;
  server.headersTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shown}:${address.port}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
