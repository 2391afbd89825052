/**
 * The embedded store's write turn: which of the process's two writers (the event loop's connection
 * and the submission writer thread's) may hold SQLite's write lock, agreed in shared memory before
 * either asks SQLite for it.
 *
 * Why: SQLite's lock has no queue. A writer that finds it taken can only sleep and try again, and
 * both sides backed off (the thread in SQLite's busy handler, 1, 2, 5, 10, 15, 20, 25 ms...; the
 * loop on timers, 1, 2, 4, 8, 16 ms), so each woke long after the other had committed. At half the
 * maximum rate the thread waited 20 to 55 ms for a lock held 1 to 3 ms, about once a second, with
 * every submission of the moment behind it. Here the side that gives the turn wakes the side
 * waiting for it at once (Atomics.notify), and when both want it they alternate: a side that has
 * just given the turn up does not take it back over the other's head.
 *
 * Other processes on the same file (the CLI, WORKERS > 1) are not in it: SQLite's lock and its busy
 * handling still stand between them and this process.
 */

/** One of the two writers of a process. */
export type Writer = 'loop' | 'thread';

const HOLDER = 0; // 0: free, 1: the loop, 2: the thread
const LAST = 1; // who held it last
const LOOP_WAITING = 2;
const THREAD_WAITING = 3;
/**
 * Bumped on every change that can let a waiter through (a take, a give, a wait abandoned), and
 * what waiters sleep on: read before a side looks at the turn, so that a change between its look
 * and its sleep (even the holder word's 0 -> 1 -> 0) ends the sleep at once.
 */
const CHANGES = 4;
const SLEPT_THROUGH = 5; // waits that ran to RECHECK_MS: a hand-over missed, or a turn held that long
const WORDS = 6;

const CODE = { loop: 1, thread: 2 } as const;
const WAITING = { loop: LOOP_WAITING, thread: THREAD_WAITING } as const;
/** How long a wait sleeps before it looks again, should a wake-up be missed. */
const RECHECK_MS = 50;

/** Shared memory for a turn: made by the store, handed to its writer thread. */
export function newWriteTurn(): SharedArrayBuffer {
  return new SharedArrayBuffer(WORDS * Int32Array.BYTES_PER_ELEMENT);
}

/** SQLite's own answer for a lock not had in time, so callers treat both alike. */
function busy(): Error {
  return Object.assign(new Error('database is locked (write turn not had in time)'), {
    code: 'ERR_SQLITE_ERROR',
    errcode: 5,
  });
}

function changed(words: Int32Array): void {
  Atomics.add(words, CHANGES, 1);
  Atomics.notify(words, CHANGES);
}

export class WriteTurn {
  readonly #words: Int32Array;
  readonly #me: 1 | 2;
  readonly #myWaiting: number;
  readonly #otherWaiting: number;

  constructor(buffer: SharedArrayBuffer, writer: Writer) {
    this.#words = new Int32Array(buffer);
    this.#me = CODE[writer];
    this.#myWaiting = WAITING[writer];
    this.#otherWaiting = WAITING[writer === 'loop' ? 'thread' : 'loop'];
  }

  /** Takes the turn if it is free and not just given up by this side to a waiting other. */
  #tryTake(): boolean {
    const words = this.#words;
    if (Atomics.load(words, this.#otherWaiting) === 1 && Atomics.load(words, LAST) === this.#me) return false;
    if (Atomics.compareExchange(words, HOLDER, 0, this.#me) !== 0) return false;
    Atomics.store(words, LAST, this.#me);
    Atomics.store(words, this.#myWaiting, 0);
    changed(words);
    return true;
  }

  /** Gives up waiting after `timeoutMs`: the other side may have been holding back for this one. */
  #abandon(): Error {
    Atomics.store(this.#words, this.#myWaiting, 0);
    changed(this.#words);
    return busy();
  }

  /** Marks this side as waiting; returns when to give up. */
  #startWaiting(timeoutMs: number): number {
    Atomics.store(this.#words, this.#myWaiting, 1);
    return performance.now() + timeoutMs;
  }

  /** One look while waiting: true once the turn is had, else what to sleep on and how long. */
  #look(deadline: number): true | { seen: number; sleepMs: number } {
    const seen = Atomics.load(this.#words, CHANGES);
    if (this.#tryTake()) return true;
    const left = deadline - performance.now();
    if (left <= 0) throw this.#abandon();
    return { seen, sleepMs: Math.min(left, RECHECK_MS) };
  }

  #woke(how: 'ok' | 'not-equal' | 'timed-out'): void {
    if (how === 'timed-out') Atomics.add(this.#words, SLEPT_THROUGH, 1);
  }

  /** For the writer thread: blocks until the turn is had, or throws after `timeoutMs`. */
  takeBlocking(timeoutMs: number): void {
    if (this.#tryTake()) return;
    const deadline = this.#startWaiting(timeoutMs);
    for (let look = this.#look(deadline); look !== true; look = this.#look(deadline)) {
      this.#woke(Atomics.wait(this.#words, CHANGES, look.seen, look.sleepMs));
    }
  }

  /** For the event loop: resolves when the turn is had (the loop runs meanwhile), rejects after `timeoutMs`. */
  async take(timeoutMs: number): Promise<void> {
    if (this.#tryTake()) return;
    const deadline = this.#startWaiting(timeoutMs);
    for (let look = this.#look(deadline); look !== true; look = this.#look(deadline)) {
      const waiting = Atomics.waitAsync(this.#words, CHANGES, look.seen, look.sleepMs);
      this.#woke(waiting.async ? await waiting.value : waiting.value);
    }
  }

  /** Gives the turn up, waking the other side if it waits. A side that does not hold it changes nothing. */
  give(): void {
    if (Atomics.compareExchange(this.#words, HOLDER, this.#me, 0) === this.#me) changed(this.#words);
  }

  /** Waits that slept their whole RECHECK_MS: with turns held briefly, each is a wake-up missed. */
  static sleptThrough(buffer: SharedArrayBuffer): number {
    return Atomics.load(new Int32Array(buffer), SLEPT_THROUGH);
  }

  /** The writer thread is gone: whatever it held or waited for is released. */
  static forfeitThread(buffer: SharedArrayBuffer): void {
    const words = new Int32Array(buffer);
    Atomics.store(words, THREAD_WAITING, 0);
    Atomics.compareExchange(words, HOLDER, CODE.thread, 0);
    changed(words);
  }
}
