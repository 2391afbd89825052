/**
 * The longest the event loop went without a turn while `work` ran: a zero-delay timer re-armed
 * throughout measures every gap. For tests that background work lets the requests beside it run.
 */
export async function longestEventLoopGap<T>(work: () => Promise<T>): Promise<{ result: T; gapMs: number }> {
  let gapMs = 0;
  let last = performance.now();
  let ticking = true;
  const tick = () => {
    const now = performance.now();
    gapMs = Math.max(gapMs, now - last);
    last = now;
    if (ticking) setTimeout(tick, 0);
  };
  setTimeout(tick, 0);
  try {
    const result = await work();
    // The tick that came due while the work ran comes before this timer: it measures the last gap.
    await new Promise((resolve) => setTimeout(resolve, 0));
    return { result, gapMs };
  } finally {
    ticking = false;
  }
}

/**
 * The event loop's turns, counted by an immediate re-armed each turn, from now until `stop()`: for
 * tests that background work leaves a turn between its steps, whatever the machine's speed.
 */
export function countEventLoopTurns(): { now(): number; stop(): void } {
  let turns = 0;
  let ticking = true;
  const tick = (): void => {
    turns += 1;
    if (ticking) setImmediate(tick);
  };
  setImmediate(tick);
  return {
    now: () => turns,
    stop: () => {
      ticking = false;
    },
  };
}
