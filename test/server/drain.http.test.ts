import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { startInstanceOn } from '../helpers/service.ts';
import { createStoreTarget } from '../helpers/stores.ts';

/**
 * The drain of a rolling restart: a request in flight when the service closes is answered, and the
 * close does not then wait for the client to drop its keep-alive connection. Both sides keep idle
 * connections for a minute here, so a close that waited would take that minute; the test allows
 * ten seconds, far more than a loaded machine needs to answer one request.
 */
test('a request in flight at close is answered, and the close does not wait on its idle connection', async () => {
  const target = createStoreTarget('sqlite');
  let entered!: () => void;
  const inHandler = new Promise<void>((resolve) => (entered = resolve));
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const service = await startInstanceOn(target, { KEEP_ALIVE_TIMEOUT_MS: '60000' }, (app) => {
    app.get('/test/held', async () => {
      entered();
      await released;
      return { held: true };
    });
  });
  const agent = new http.Agent({ keepAlive: true, keepAliveMsecs: 60_000 });
  try {
    const { port } = service.app.server.address() as AddressInfo;
    const answered = new Promise<{ status: number; body: string }>((resolve, reject) => {
      http
        .get({ host: '127.0.0.1', port, path: '/test/held', agent }, (response) => {
          let body = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (body += chunk));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
        })
        .on('error', reject);
    });
    await inHandler;

    const closed = service.app.close().then(() => 'closed' as const);
    // The close runs its hooks first; the request is answered once the server has stopped
    // listening, so its connection is busy when Fastify ends the idle ones.
    while (service.app.server.listening) await delay(10);
    release();
    const reply = await answered;
    assert.equal(reply.status, 200);
    assert.deepEqual(JSON.parse(reply.body), { held: true });

    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<'still open'>(
      (resolve) => (timer = setTimeout(() => resolve('still open'), 10_000)),
    );
    assert.equal(
      await Promise.race([closed, waited]),
      'closed',
      'the close waited on an idle keep-alive connection',
    );
    clearTimeout(timer);
  } finally {
    agent.destroy();
    await service.app.close();
    await service.ctx.store.close();
    await target.cleanup();
  }
});
