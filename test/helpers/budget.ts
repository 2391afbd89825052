import { availableParallelism, loadavg } from 'node:os';

/**
 * Time budgets derived from the machine, for tests that wait on an event (a line of output, a
 * delivery, an answer) and need a ceiling only so that a lost event fails instead of hanging. The
 * ceiling grows with the load now (runnable processes per core, over the last minute), never below
 * three times what the wait takes on an idle machine: a loaded two-core machine slows a process
 * start or a request several-fold, and a generous ceiling costs nothing when the event comes.
 */
export function slowness(): number {
  const perCore = (loadavg()[0] ?? 0) / availableParallelism();
  return Math.min(Math.max(3, 2 * perCore), 20);
}

/** The ceiling for a wait that takes `idleMs` on an idle machine. */
export function budgetMs(idleMs: number): number {
  return Math.round(idleMs * slowness());
}
