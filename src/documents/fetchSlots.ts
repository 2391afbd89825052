import { randomInt } from 'node:crypto';
import type { DocumentConfig } from '../config/documents.ts';
import { DocumentFailure } from './outcome.ts';

/**
 * The process's document fetches in flight, shared fairly. At most DOCUMENT_FETCHES_AT_ONCE at
 * once; of them at most DOCUMENT_FETCHES_PER_PARTNER for one partner's documents and at most
 * DOCUMENT_FETCHES_PER_HOST to one host (the URL's host name, before any redirect); and a host whose
 * fetch just failed as a host fails (a time-out, a refused or broken connection, a 5xx or 429) is
 * left alone for DOCUMENT_HOST_BACKOFF_MS, doubling with each failure in a row up to 64 times that,
 * until one of its fetches succeeds. So one partner's slow or hostile hosts take some of the slots
 * for a minute, never all of them, and another partner's documents start at once.
 *
 * A fetch whose partner or host is at its limit, or whose host is backing off, is not waited for:
 * it is deferred (its job leaves it for a later run and ends, so the job runner's places go to
 * other work too). Only when every slot is taken does a fetch wait, in arrival order, until the
 * time its run may start no more fetches.
 */

export type Slot =
  | { readonly granted: true; release(error?: unknown): void }
  /** `at`: when to try again (ms); `why` names the limit, for the job's last error. */
  | { readonly granted: false; readonly at: number; readonly why: string };

interface Waiter {
  partner: string;
  host: string;
  resolve(slot: Slot): void;
  timer: NodeJS.Timeout;
}

interface Backoff {
  failures: number;
  until: number;
}

export interface FetchLimits {
  atOnce: number;
  perPartner: number;
  perHost: number;
  hostBackoffMs: number;
}

/** A deferral for a limit that frees itself as fetches end: tried again 1 to 2 s later. */
const deferMs = () => 1_000 + randomInt(1_001);
/** Backoff grows to 64 × DOCUMENT_HOST_BACKOFF_MS (about 5 minutes by default) and no further. */
const MAX_BACKOFF_STEPS = 6;

export class FetchSlots {
  private inFlight = 0;
  private readonly byPartner = new Map<string, number>();
  private readonly byHost = new Map<string, number>();
  private readonly backoffs = new Map<string, Backoff>();
  private readonly waiting: Waiter[] = [];
  private readonly limits: FetchLimits;
  private readonly now: () => number;

  constructor(limits: FetchLimits, now: () => number = Date.now) {
    this.limits = limits;
    this.now = now;
  }

  /** Fetches in flight, for tests and metrics. */
  get busy(): number {
    return this.inFlight;
  }

  /**
   * A slot for one fetch of `partner`'s document from `host`, or a deferral: at once when the
   * partner or host is at its limit or the host is backing off, at `until` (ms) when no slot came
   * free by then. `release` gives the slot back with the fetch's error, if any, which tells whether
   * the host backs off.
   */
  take(partner: string, host: string, until: number, signal?: AbortSignal): Promise<Slot> {
    const refused = this.refusal(partner, host);
    if (refused !== null) return Promise.resolve(refused);
    if (this.inFlight < this.limits.atOnce && this.waiting.length === 0)
      return Promise.resolve(this.grant(partner, host));
    return new Promise<Slot>((resolve) => {
      const giveUp = () => {
        const at = this.waiting.indexOf(waiter);
        if (at >= 0) this.waiting.splice(at, 1);
        clearTimeout(waiter.timer);
        resolve({ granted: false, at: this.now(), why: 'no fetch slot free' });
      };
      const waiter: Waiter = {
        partner,
        host,
        resolve: (slot) => {
          signal?.removeEventListener('abort', giveUp);
          resolve(slot);
        },
        timer: setTimeout(giveUp, Math.max(0, until - this.now())),
      };
      signal?.addEventListener('abort', giveUp, { once: true });
      this.waiting.push(waiter);
    });
  }

  /** Why this fetch may not start now (its partner, its host), or null. */
  private refusal(partner: string, host: string): Slot | null {
    const now = this.now();
    const backoff = this.backoffs.get(host);
    if (backoff !== undefined && backoff.until > now)
      return { granted: false, at: backoff.until, why: 'its host is backing off' };
    if ((this.byPartner.get(partner) ?? 0) >= this.limits.perPartner)
      return { granted: false, at: now + deferMs(), why: "its partner's fetches are at their limit" };
    if ((this.byHost.get(host) ?? 0) >= this.limits.perHost)
      return { granted: false, at: now + deferMs(), why: "its host's fetches are at their limit" };
    return null;
  }

  private grant(partner: string, host: string): Slot {
    this.inFlight++;
    this.byPartner.set(partner, (this.byPartner.get(partner) ?? 0) + 1);
    this.byHost.set(host, (this.byHost.get(host) ?? 0) + 1);
    let released = false;
    return {
      granted: true,
      release: (error?: unknown) => {
        if (released) return;
        released = true;
        this.inFlight--;
        decrement(this.byPartner, partner);
        decrement(this.byHost, host);
        this.record(host, error);
        this.next();
      },
    };
  }

  /** A host's failure backs it off (longer each time in a row); its success ends the backoff. */
  private record(host: string, error: unknown): void {
    if (!hostFailed(error)) {
      if (error === undefined) this.backoffs.delete(host);
      return;
    }
    if (this.limits.hostBackoffMs === 0) return;
    const failures = (this.backoffs.get(host)?.failures ?? 0) + 1;
    const step = this.limits.hostBackoffMs * 2 ** Math.min(failures - 1, MAX_BACKOFF_STEPS);
    this.backoffs.set(host, { failures, until: this.now() + step });
    if (this.backoffs.size > 10_000) this.forgetExpired();
  }

  private forgetExpired(): void {
    const now = this.now();
    for (const [host, backoff] of this.backoffs)
      if (backoff.until <= now - this.limits.hostBackoffMs * 2 ** MAX_BACKOFF_STEPS)
        this.backoffs.delete(host);
  }

  /** A slot came free: the first waiter, in arrival order; one now over a limit is deferred. */
  private next(): void {
    while (this.inFlight < this.limits.atOnce) {
      const waiter = this.waiting.shift();
      if (waiter === undefined) return;
      clearTimeout(waiter.timer);
      waiter.resolve(this.refusal(waiter.partner, waiter.host) ?? this.grant(waiter.partner, waiter.host));
    }
  }
}

function decrement(counts: Map<string, number>, key: string): void {
  const left = (counts.get(key) ?? 1) - 1;
  if (left === 0) counts.delete(key);
  else counts.set(key, left);
}

/**
 * Whether a fetch's error is its host's: no answer in time, a connection refused or broken, a body
 * cut short, a 5xx or 429. A 404, a redirect too many, a body that is no document: the URL's, not
 * the host's.
 */
export function hostFailed(error: unknown): boolean {
  if (!(error instanceof DocumentFailure) || error.reason !== 'unreachable') return false;
  const status = /^HTTP (\d{3})$/.exec(error.detail);
  if (status !== null) return status[1]!.startsWith('5') || status[1] === '429';
  return !/redirect|location|unreadable URL|DNS: ENOTFOUND/.test(error.detail);
}

/** The URL's host name, as the limits count it. */
export function hostOf(url: string): string {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return '';
  }
}

/** One set of slots per configuration: in a service, one for the process. */
const slotsByConfig = new WeakMap<DocumentConfig, FetchSlots>();

export function fetchSlotsOf(config: DocumentConfig): FetchSlots {
  let slots = slotsByConfig.get(config);
  if (slots === undefined) {
    slots = new FetchSlots({
      atOnce: config.fetchesAtOnce,
      perPartner: config.fetchesPerPartner,
      perHost: config.fetchesPerHost,
      hostBackoffMs: config.hostBackoffMs,
    });
    slotsByConfig.set(config, slots);
  }
  return slots;
}
