import type { DocumentConfig } from '../config/documents.ts';
import type { ServiceMetrics } from '../metrics/metrics.ts';
import { DocumentFailure } from './outcome.ts';

/**
 * The process's document fetch slots, shared fairly. A fetch runs only with a slot: at most
 * `total` (DOCUMENT_FETCH_SLOTS) in flight, of them at most `perPartner` for one partner's
 * documents and `perHost` to one host (the URL's host and port). A fetch that cannot start waits
 * here, in memory, holding nothing but its place in line: the waiters are queued by partner, then
 * by host, and a freed slot goes round the partners in turn (within a partner, round its hosts), so
 * one partner's twenty slow URLs leave the rest of the slots to the others and never line up in
 * front of them. A host whose fetch timed out, could not connect or answered 5xx or 429 is left
 * alone for `backoffMs`, doubled with each failure in a row (up to 64 times), and a success ends
 * the streak: its waiters stay in line without a slot until then. All of it is the run's memory,
 * never a row: the job's writes stay what they were (one claim and one completion a run).
 *
 * A wait ends at its window's end (the job's lease leaves no room for a fetch started later):
 * the fetch is then deferred (`FetchDeferred`), not failed: no attempt was made.
 */

export interface SlotLimits {
  total: number;
  perPartner: number;
  perHost: number;
  /** A failing host's first backoff (ms), doubled with each failure in a row; 0: none. */
  backoffMs: number;
}

/** Why a fetch waits, for the gauge: the first limit in its way. */
export type WaitReason = 'host_backoff' | 'host_limit' | 'partner_limit' | 'slots';

/** How a fetch ended, for its host: `failed` (the host's fault) backs it off, `ok` ends a streak. */
export type HostOutcome = 'ok' | 'failed' | 'neither';

export interface Slot {
  release(outcome: HostOutcome): void;
}

/** A fetch not started: no slot came free in the run's window, or its host backs off past it. */
export class FetchDeferred extends DocumentFailure {
  /** When it may be tried (ms): the host's backoff end, or now. */
  readonly at: number;
  constructor(detail: string, at: number) {
    super('unreachable', detail);
    this.at = at;
  }
}

const MAX_DOUBLINGS = 6;
/** Past this many hosts in memory, those idle and done backing off are forgotten. */
const MAX_HOSTS_KEPT = 1_000;

interface Waiter {
  partner: string;
  host: string;
  window: FetchWindow;
  grant: (slot: Slot) => void;
  fail: (error: Error) => void;
}

interface HostState {
  running: number;
  /** Failures in a row; 0 after a success. */
  streak: number;
  blockedUntil: number;
  /** When the streak last grew: a fetch begun before it fails within the same outage. */
  failedAt: number;
}

interface PartnerState {
  running: number;
  /** Waiters by host, each in arrival order; a host is here only while it has waiters. */
  queues: Map<string, Waiter[]>;
}

export class FetchSlots {
  readonly limits: SlotLimits;
  readonly #now: () => number;
  #running = 0;
  readonly #partners = new Map<string, PartnerState>();
  readonly #hosts = new Map<string, HostState>();
  /** Partners with waiters, in turn: the next freed slot goes to the first that can take it. */
  #turn: string[] = [];
  #timer: NodeJS.Timeout | undefined;
  #timerAt = Infinity;

  constructor(limits: SlotLimits, now: () => number = Date.now) {
    this.limits = limits;
    this.#now = now;
  }

  /** A run's window: its waits end at `until` (ms) or when `signal` aborts. Close it when done. */
  window(until: number, signal?: AbortSignal): FetchWindow {
    return new FetchWindow(this, until, signal);
  }

  /** Fetches running and waiting, the waiting by the first limit in their way. */
  counts(): { running: number } & Record<WaitReason, number> {
    const counts = { running: this.#running, host_backoff: 0, host_limit: 0, partner_limit: 0, slots: 0 };
    const now = this.#now();
    for (const partner of this.#partners.values())
      for (const [host, queue] of partner.queues) counts[this.#blocker(partner, host, now)] += queue.length;
    return counts;
  }

  /** @internal FetchWindow's: a slot now, or a place in line. */
  take(partner: string, host: string, window: FetchWindow): Promise<Slot> {
    return new Promise<Slot>((grant, fail) => {
      const waiter: Waiter = { partner, host, window, grant, fail };
      const state = this.#partnerOf(partner);
      const queue = state.queues.get(host);
      if (queue === undefined) state.queues.set(host, [waiter]);
      else queue.push(waiter);
      if (state.queues.size === 1 && queue === undefined) this.#turn.push(partner);
      window.waiting.add(waiter);
      this.#pump();
      if (window.waiting.has(waiter)) this.#deferIfBlockedPastWindow(waiter);
    });
  }

  /** @internal FetchWindow's: the window is over; what still waits in it is deferred. */
  endWindow(window: FetchWindow, error: () => Error): void {
    for (const waiter of window.waiting) this.#drop(waiter, error());
    window.waiting.clear();
    this.#pump();
  }

  #partnerOf(partner: string): PartnerState {
    let state = this.#partners.get(partner);
    if (state === undefined) {
      state = { running: 0, queues: new Map() };
      this.#partners.set(partner, state);
    }
    return state;
  }

  #hostOf(host: string): HostState {
    let state = this.#hosts.get(host);
    if (state === undefined) {
      state = { running: 0, streak: 0, blockedUntil: 0, failedAt: -Infinity };
      this.#hosts.set(host, state);
    }
    return state;
  }

  #blocker(partner: PartnerState, host: string, now: number): WaitReason {
    const state = this.#hosts.get(host);
    if (state !== undefined && state.blockedUntil > now) return 'host_backoff';
    if (state !== undefined && state.running >= this.limits.perHost) return 'host_limit';
    if (partner.running >= this.limits.perPartner) return 'partner_limit';
    return 'slots';
  }

  /** A waiter out of line (granted, deferred or stopped). */
  #unqueue(waiter: Waiter): void {
    waiter.window.waiting.delete(waiter);
    const partner = this.#partners.get(waiter.partner)!;
    const queue = partner.queues.get(waiter.host)!;
    // Granted from the front, deferred on arrival from the back: only a window's end looks further.
    if (queue[0] === waiter) queue.shift();
    else if (queue.at(-1) === waiter) queue.pop();
    else queue.splice(queue.indexOf(waiter), 1);
    if (queue.length > 0) return;
    partner.queues.delete(waiter.host);
    if (partner.queues.size === 0) this.#turn = this.#turn.filter((name) => name !== waiter.partner);
    this.#forget(waiter.partner, waiter.host);
  }

  #drop(waiter: Waiter, error: Error): void {
    this.#unqueue(waiter);
    waiter.fail(error);
  }

  /** Idle partners and hosts are forgotten; a host's streak only once its backoff is over. */
  #forget(partner: string, host: string): void {
    const p = this.#partners.get(partner);
    if (p !== undefined && p.running === 0 && p.queues.size === 0) this.#partners.delete(partner);
    const h = this.#hosts.get(host);
    if (h === undefined || h.running > 0 || h.blockedUntil > this.#now()) return;
    for (const other of this.#partners.values()) if (other.queues.has(host)) return;
    this.#hosts.delete(host);
  }

  /**
   * Gives free slots to waiters until none can take one: each to the waiting partner with the
   * fewest fetches running (of those under their cap, with a host that may be asked now), the one
   * served longest ago first among equals; within a partner, its hosts in turn.
   */
  #pump(): void {
    const now = this.#now();
    while (this.#running < this.limits.total) {
      let chosen: { at: number; queue: Waiter[]; host: string; partner: PartnerState } | undefined;
      for (const [at, name] of this.#turn.entries()) {
        const partner = this.#partners.get(name)!;
        if (partner.running >= this.limits.perPartner) continue;
        if (chosen !== undefined && partner.running >= chosen.partner.running) continue;
        for (const [host, queue] of partner.queues) {
          const state = this.#hosts.get(host);
          if (state !== undefined && (state.blockedUntil > now || state.running >= this.limits.perHost))
            continue;
          chosen = { at, queue, host, partner };
          break;
        }
      }
      if (chosen === undefined) break;
      // Served: the partner goes to the back of the turn, and so does this host of its.
      this.#turn.push(...this.#turn.splice(chosen.at, 1));
      chosen.partner.queues.delete(chosen.host);
      chosen.partner.queues.set(chosen.host, chosen.queue);
      this.#grant(chosen.queue[0]!);
    }
    let wakeAt = Infinity;
    // A backoff that ends frees its waiters without anything else happening.
    for (const partner of this.#partners.values())
      for (const host of partner.queues.keys()) {
        const until = this.#hosts.get(host)?.blockedUntil ?? 0;
        if (until > now) wakeAt = Math.min(wakeAt, until);
      }
    this.#wakeAt(wakeAt);
  }

  #wakeAt(at: number): void {
    if (at === Infinity || at >= this.#timerAt) return;
    clearTimeout(this.#timer);
    this.#timerAt = at;
    this.#timer = setTimeout(
      () => {
        this.#timer = undefined;
        this.#timerAt = Infinity;
        this.#pump();
      },
      Math.max(0, at - this.#now()),
    );
    this.#timer.unref();
  }

  #grant(waiter: Waiter): void {
    this.#unqueue(waiter);
    const partner = this.#partnerOf(waiter.partner);
    const host = this.#hostOf(waiter.host);
    this.#running++;
    partner.running++;
    host.running++;
    const startedAt = this.#now();
    let released = false;
    waiter.grant({
      release: (outcome) => {
        if (released) return;
        released = true;
        this.#running--;
        partner.running--;
        host.running--;
        this.#settleHost(waiter.host, host, outcome, startedAt);
        this.#forget(waiter.partner, waiter.host);
        this.#pump();
      },
    });
  }

  #settleHost(name: string, host: HostState, outcome: HostOutcome, startedAt: number): void {
    if (outcome === 'ok') {
      host.streak = 0;
      host.blockedUntil = 0;
      return;
    }
    if (outcome !== 'failed' || this.limits.backoffMs === 0) return;
    // Fetches in flight when the host first failed fail with it: one outage, one step.
    if (startedAt <= host.failedAt) return;
    const now = this.#now();
    // A host that failed and was never asked again is kept only while it backs off.
    if (this.#hosts.size > MAX_HOSTS_KEPT)
      for (const [other, state] of this.#hosts)
        if (state.running === 0 && state.blockedUntil <= now) this.#forget('', other);
    host.streak++;
    host.failedAt = now;
    host.blockedUntil = now + this.limits.backoffMs * 2 ** Math.min(host.streak - 1, MAX_DOUBLINGS);
    // Its waiters whose window ends first are deferred now rather than at the window's end.
    for (const partner of this.#partners.values())
      for (const waiter of [...(partner.queues.get(name) ?? [])]) this.#deferIfBlockedPastWindow(waiter);
  }

  #deferIfBlockedPastWindow(waiter: Waiter): void {
    const host = this.#hosts.get(waiter.host);
    if (host === undefined || host.blockedUntil <= waiter.window.until) return;
    this.#drop(waiter, new FetchDeferred('the host backs off', host.blockedUntil));
  }
}

/** One run's waits: they end together, at its window's end or when its runner stops. */
export class FetchWindow {
  readonly until: number;
  /** @internal the scheduler's: this window's waiters. */
  readonly waiting = new Set<Waiter>();
  readonly #slots: FetchSlots;
  readonly #signal: AbortSignal | undefined;
  readonly #timer: NodeJS.Timeout;
  readonly #onAbort: () => void;
  #closed = false;

  constructor(slots: FetchSlots, until: number, signal: AbortSignal | undefined) {
    this.#slots = slots;
    this.until = until;
    this.#signal = signal;
    this.#timer = setTimeout(() => this.#end(), Math.max(0, until - Date.now()));
    this.#timer.unref();
    this.#onAbort = () => this.#end();
    signal?.addEventListener('abort', this.#onAbort, { once: true });
  }

  /** A slot for a fetch of `partner`'s document from `host`; rejects with `FetchDeferred`. */
  take(partner: string, host: string): Promise<Slot> {
    if (this.#signal?.aborted === true) return Promise.reject(interrupted());
    if (this.#closed) return Promise.reject(new FetchDeferred('no fetch slot in time', 0));
    return this.#slots.take(partner, host, this);
  }

  close(): void {
    this.#end();
  }

  #end(): void {
    if (this.#closed) return;
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#signal?.removeEventListener('abort', this.#onAbort);
    const stopped = this.#signal?.aborted === true;
    this.#slots.endWindow(this, () =>
      stopped ? interrupted() : new FetchDeferred('no fetch slot in time', 0),
    );
  }
}

function interrupted(): Error {
  return new DocumentFailure('unreachable', 'interrupted');
}

/** The host (and port) a URL's fetch counts against; '' for an unreadable URL (the fetch says why). */
export function hostOf(url: string): string {
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return '';
  }
}

const byConfig = new WeakMap<DocumentConfig, FetchSlots>();

/** The process's slots, for its configuration (one in production; a test's own config has its own). */
export function fetchSlotsOf(documents: DocumentConfig): FetchSlots {
  let slots = byConfig.get(documents);
  if (slots === undefined) {
    slots = new FetchSlots({
      total: documents.fetchSlots,
      perPartner: documents.fetchSlotsPerPartner,
      perHost: documents.fetchSlotsPerHost,
      backoffMs: documents.hostBackoffMs,
    });
    byConfig.set(documents, slots);
  }
  return slots;
}

const placesByConfig = new WeakMap<DocumentConfig, FetchSlots>();

/**
 * The process's application places: an application of a fetch job holds one from before it reads
 * its row until its fetches end, as many as there are fetch slots, half of them (the partner's
 * share of the slots) for one partner's applications, shared in turn as the slots are. They bound
 * the applications in memory and the pace of the job's reads and writes (what is started is what
 * the slots can take up), and keep one partner's waiting applications from filling them.
 */
export function applicationPlacesOf(documents: DocumentConfig): FetchSlots {
  let places = placesByConfig.get(documents);
  if (places === undefined) {
    places = new FetchSlots({
      total: documents.fetchSlots,
      perPartner: documents.fetchSlotsPerPartner,
      perHost: documents.fetchSlots,
      backoffMs: 0,
    });
    placesByConfig.set(documents, places);
  }
  return places;
}

/**
 * `cardapply_document_fetches{state}`: the process's fetches running, and those waiting by the
 * first limit in their way (`slots`, `partner_limit`, `host_limit`, `host_backoff`), read when
 * Prometheus scrapes: a partner's or a host's line growing shows whose documents are held up.
 */
export function registerDocumentFetchGauge(metrics: ServiceMetrics, documents: DocumentConfig): void {
  metrics.gauge(
    'cardapply_document_fetches',
    'Document fetches of this process: running, and waiting by the first limit in their way (slots, partner_limit, host_limit, host_backoff)',
    ['state'],
    (gauge) => {
      for (const [state, count] of Object.entries(fetchSlotsOf(documents).counts()))
        gauge.set({ state }, count);
    },
    'sum',
  );
}
