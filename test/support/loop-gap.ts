// The event loop's responsiveness during an async call: the worst gap between consecutive 1 ms
// timers while the call runs (what another request on the same process would wait at worst).
// Used by the event-loop test (a generous bound) and bench/loop.ts (the real figure).
import { performance } from 'node:perf_hooks';

/** Runs `fn` while a 1 ms timer chain ticks; returns its result and the worst gap in ms beyond 1 ms. */
export async function worstGap<T>(fn: () => Promise<T>): Promise<{ result: T; gapMs: number }> {
  let worst = 0;
  let last = performance.now();
  let running = true;
  let timer: NodeJS.Timeout | undefined;
  const tick = (): void => {
    const now = performance.now();
    worst = Math.max(worst, now - last - 1);
    last = now;
    if (running) timer = setTimeout(tick, 1);
  };
  timer = setTimeout(tick, 1);
  try {
    const result = await fn();
    // The gap still open when the call returns counts too.
    worst = Math.max(worst, performance.now() - last - 1);
    return { result, gapMs: Math.max(0, worst) };
  } finally {
    running = false;
    clearTimeout(timer);
  }
}
