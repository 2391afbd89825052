import type { Store } from '../store/connect.ts';
import type { TokenWithApp } from './appRepository.ts';

/**
 * Access tokens that authenticated, with their app's state, kept for at most TOKEN_CACHE_MS
 * (1 s at most): a partner's requests then cost no store round trip for authentication. Safe
 * because a token stops working within that second everywhere: this process drops the whole cache
 * as soon as it changes an app or a token itself (an operator's disable, a revocation, a new rate
 * limit: `store.watchWrites`), and another process's change (another instance, the CLI, through a
 * pooler or not) is seen when the entry runs out. Only successes are kept: a refused token is
 * looked up every time, so that a re-enabled app works at once.
 */
export class TokenCache {
  readonly #ttlMs: number;
  readonly #maxEntries: number;
  readonly #entries = new Map<string, { row: TokenWithApp; until: number }>();
  /** Store lookups under way, by token hash, with the generation they began in. */
  readonly #lookups = new Map<string, { generation: number; row: Promise<TokenWithApp | undefined> }>();
  /** Bumped by every invalidation: a lookup begun before one is not kept. */
  #generation = 0;

  constructor(ttlMs: number, maxEntries = 10_000) {
    this.#ttlMs = ttlMs;
    this.#maxEntries = maxEntries;
  }

  get generation(): number {
    return this.#generation;
  }

  get(tokenHash: string): TokenWithApp | undefined {
    const entry = this.#entries.get(tokenHash);
    if (entry === undefined) return undefined;
    if (entry.until > performance.now()) return entry.row;
    this.#entries.delete(tokenHash);
    return undefined;
  }

  /** Keeps a row looked up since `generation` was read, unless the cache was invalidated meanwhile. */
  set(tokenHash: string, row: TokenWithApp, generation: number): void {
    if (generation !== this.#generation) return;
    if (this.#entries.size >= this.#maxEntries) this.#entries.clear();
    this.#entries.set(tokenHash, { row, until: performance.now() + this.#ttlMs });
  }

  /**
   * The token's row from the store, one lookup at a time: requests that miss together (a fresh
   * process's first burst, the moment an entry runs out under load: up to one a connection) share
   * the lookup under way, unless the cache was invalidated since it began (a revocation is never
   * answered by a read from before it). `find` reads the row and keeps it when it authenticates.
   */
  lookup(tokenHash: string, find: (generation: number) => Promise<TokenWithApp | undefined>) {
    const pending = this.#lookups.get(tokenHash);
    if (pending !== undefined && pending.generation === this.#generation) return pending.row;
    const generation = this.#generation;
    const row = find(generation).finally(() => {
      if (this.#lookups.get(tokenHash)?.row === row) this.#lookups.delete(tokenHash);
    });
    this.#lookups.set(tokenHash, { generation, row });
    return row;
  }

  clear(): void {
    this.#generation += 1;
    this.#entries.clear();
  }
}

const caches = new WeakMap<Store, TokenCache>();

/** The cache of a store's process, dropped whenever the process changes apps or tokens. */
export function tokenCacheOf(store: Store, ttlMs: number): TokenCache {
  let cache = caches.get(store);
  if (cache === undefined) {
    const created = new TokenCache(ttlMs);
    store.watchWrites(['apps', 'access_tokens'], () => created.clear());
    caches.set(store, created);
    cache = created;
  }
  return cache;
}
