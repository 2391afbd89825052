import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fetchDocument, type FetchOptions } from '../../src/documents/fetcher.ts';
import { DocumentFailure } from '../../src/documents/outcome.ts';
import { pngImage, sha256 } from '../helpers/documentImages.ts';
import { startDocumentServer, type DocumentServer } from '../helpers/documentServer.ts';

/**
 * The fetcher against real HTTP servers on loopback addresses. Where private addresses are not
 * allowed, 127.0.0.2 stands in for a public host (`addressAllowed`), so that a redirect to
 * 127.0.0.1 is refused exactly as a redirect from the internet to the service's own network is.
 */
const MAX = 1024 * 1024;
const base: FetchOptions = { maxBytes: MAX, connectTimeoutMs: 2_000, timeoutMs: 10_000, allowPrivate: true };
const publicStandIn: FetchOptions = { ...base, addressAllowed: (address) => address === '127.0.0.2' };

const read = (url: string, options: FetchOptions = base) =>
  fetchDocument(url, options, async (body) => {
    const parts: Buffer[] = [];
    // A copy of each piece: the fetcher frees a piece once the next is asked for.
    for await (const part of body) parts.push(Buffer.from(part));
    return Buffer.concat(parts);
  });

async function failure(work: Promise<unknown>): Promise<string> {
  try {
    await work;
  } catch (error) {
    if (error instanceof DocumentFailure) return error.reason;
    throw error;
  }
  return 'no failure';
}

describe('the document fetcher', () => {
  let outside: DocumentServer; // 127.0.0.2: the "public" host
  let inside: DocumentServer; // 127.0.0.1: the service's own network
  before(async () => {
    outside = await startDocumentServer('127.0.0.2');
    inside = await startDocumentServer('127.0.0.1');
  });
  after(async () => {
    await outside.close();
    await inside.close();
  });

  test('fetches the bytes as served, through redirects up to three', async () => {
    const image = pngImage(400, 300);
    const url = outside.route('/photo.png', { kind: 'bytes', body: image });
    assert.equal(sha256(await read(url, publicStandIn)), sha256(image));
    outside.route('/r3', { kind: 'redirect', location: '/r2' });
    outside.route('/r2', { kind: 'redirect', location: '/r1', status: 307 });
    outside.route('/r1', { kind: 'redirect', location: url, status: 301 });
    assert.equal(sha256(await read(`${outside.origin}/r3`, publicStandIn)), sha256(image));
    outside.route('/r4', { kind: 'redirect', location: '/r3' });
    assert.equal(await failure(read(`${outside.origin}/r4`, publicStandIn)), 'unreachable');
  });

  test('refuses a redirect to a loopback address, and the loopback host itself', async () => {
    const secret = inside.route('/metadata', { kind: 'bytes', body: pngImage(400, 400) });
    const before = inside.requests.length;
    outside.route('/to-loopback', { kind: 'redirect', location: secret });
    outside.route('/to-localhost', {
      kind: 'redirect',
      location: secret.replace('127.0.0.1', 'localhost'),
    });
    assert.equal(await failure(read(`${outside.origin}/to-loopback`, publicStandIn)), 'refused_address');
    assert.equal(await failure(read(`${outside.origin}/to-localhost`, publicStandIn)), 'refused_address');
    assert.equal(await failure(read(secret, publicStandIn)), 'refused_address');
    assert.equal(inside.requests.length, before, 'the loopback server was never reached');
  });

  test('without DOCUMENT_ALLOW_PRIVATE: https only, no private or special-use host', async () => {
    const strict: FetchOptions = { ...base, allowPrivate: false };
    assert.equal(await failure(read(`${outside.origin}/photo.png`, strict)), 'refused_address');
    for (const url of [
      'https://127.0.0.1/x.png',
      'https://localhost/x.png',
      'https://[::1]/x.png',
      'https://169.254.169.254/latest/meta-data',
      'https://metadata.internal/x',
      'https://user:pass@example.com/x.png',
      'ftp://example.com/x.png',
    ]) {
      assert.equal(await failure(read(url, strict)), 'refused_address', url);
    }
  });

  test('cuts an oversized body off while it streams, declared or not', async () => {
    for (const contentLength of [false, true]) {
      const path = `/huge-${contentLength}`;
      const url = outside.route(path, {
        kind: 'stream',
        total: 64 * MAX,
        fill: pngImage(400, 300),
        contentLength,
      });
      assert.equal(await failure(read(url, publicStandIn)), 'too_large');
      const served = outside.requests.find((r) => r.path === path)!;
      await served.done;
      assert.ok(served.cutOff, 'the connection was closed before the end');
      assert.ok(
        served.bytesWritten < 8 * MAX,
        `the server wrote ${served.bytesWritten} bytes of ${64 * MAX}`,
      );
    }
  });

  test('an unreachable host, a refused port or an error status is unreachable (worth another try)', async () => {
    const closed = await startDocumentServer('127.0.0.2');
    const url = `${closed.origin}/gone.png`;
    await closed.close();
    assert.equal(await failure(read(url, publicStandIn)), 'unreachable');
    assert.equal(await failure(read('http://nothing.invalid/x.png')), 'unreachable');
    const missing = outside.route('/missing', { kind: 'status', status: 503 });
    assert.equal(await failure(read(missing, publicStandIn)), 'unreachable');
  });

  test('a stop ends a fetch still waiting for DNS, however long the resolver takes', async () => {
    // A lookup runs on a thread of libuv's pool and cannot be cancelled. Every thread is held by an
    // open of a FIFO that nobody writes yet, so the lookup waits as on a resolver that never answers.
    const dir = mkdtempSync(join(tmpdir(), 'cardapply-dns-'));
    const fifo = join(dir, 'held');
    execFileSync('mkfifo', [fifo]);
    const threads = Number(process.env['UV_THREADPOOL_SIZE'] ?? 4);
    const held = Array.from({ length: threads }, () => open(fifo, 'r'));
    try {
      const stop = new AbortController();
      const started = performance.now();
      const fetching = failure(
        read('http://documents.example.test/id.png', {
          ...base,
          connectTimeoutMs: 60_000,
          timeoutMs: 60_000,
          signal: stop.signal,
        }),
      );
      setTimeout(() => stop.abort(), 100);
      assert.equal(await fetching, 'unreachable');
      const tookMs = performance.now() - started;
      assert.ok(tookMs < 10_000, `the stop ended the wait after ${Math.round(tookMs)} ms, not at once`);
    } finally {
      // A writer opening the FIFO (on this thread: the pool is full) lets every held open return.
      const writer = openSync(fifo, 'w');
      for (const handle of await Promise.all(held)) await handle.close();
      closeSync(writer);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
