import type { FastifyReply } from 'fastify';
import { ServiceError } from '../errors/serviceError.ts';

/** What a refused request is told to wait: a slot frees as soon as one of the app's requests ends. */
const RETRY_AFTER_SECONDS = 1;

/**
 * Requests of each app in progress in this process, at most the app's own limit at once (set with
 * `cardapply apps concurrency`), or `limit` (APP_CONCURRENCY_LIMIT) for an app without one.
 * Above it a request is refused at once, before its body is validated or the store is asked, so
 * that one app saturating the service cannot make the other apps' requests queue behind its own.
 * A slot is freed when the response has gone out or the connection has closed, whichever is first:
 * the response's 'close' event comes in both cases, once.
 */
export class AppConcurrency {
  readonly limit: number;
  readonly #inFlight = new Map<string, number>();

  constructor(limit: number) {
    this.limit = limit;
  }

  /** Requests of `appId` in progress now. */
  inFlight(appId: string): number {
    return this.#inFlight.get(appId) ?? 0;
  }

  /**
   * Takes a slot of `appId` until `reply` closes, or throws the 429 when it has none. `ownLimit` is
   * the app's own cap (null: the default).
   */
  admit(appId: string, reply: FastifyReply, ownLimit: number | null = null): void {
    const count = this.#inFlight.get(appId) ?? 0;
    const limit = ownLimit ?? this.limit;
    if (count >= limit) {
      throw new ServiceError('concurrencyLimited', {
        params: { app_id: appId, limit, retry_after: RETRY_AFTER_SECONDS },
        data: { retry_after: RETRY_AFTER_SECONDS },
        headers: { 'retry-after': String(RETRY_AFTER_SECONDS) },
      });
    }
    // A client that went away while its token was looked up holds nothing: 'close' is behind it.
    if (reply.raw.closed) return;
    this.#inFlight.set(appId, count + 1);
    reply.raw.once('close', () => this.#release(appId));
  }

  /**
   * An app's count stays in the map at zero: deleting it when the app's last request ended, and
   * adding it again with the next, rebuilt the map's table again and again, and this map lives as
   * long as the process, so what it held went to the old generation (appConcurrency.test.ts). One
   * entry per app that has called this process.
   */
  #release(appId: string): void {
    this.#inFlight.set(appId, Math.max(0, (this.#inFlight.get(appId) ?? 1) - 1));
  }
}
