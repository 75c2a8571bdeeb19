// The event loop's responsiveness during an async call: the worst gap between consecutive 1 ms
// timers while the call runs (what another request on the same process would wait at worst).
// Used by the event-loop tests (a generous bound) and bench/loop.ts (the real figure).
//
// `cpu: true` also measures the worst gap in the main thread's CPU time: on a loaded machine (CI, 8
// developers on 2 cores) the OS deschedules the process for tens of ms at a time and V8's parallel
// GC waits for starved helper threads, which stretches wall-time gaps with no work of ours holding
// the loop; the main thread's CPU time does not advance then, while a loop held by decoding
// advances it as fast as the wall clock. Read from /proc/thread-self/schedstat (Linux, ns), else
// process.threadCpuUsage() (Node ≥ 23.9), else undefined.
import { performance } from 'node:perf_hooks';
import { closeSync, openSync, readSync } from 'node:fs';

/** A clock of the main thread's CPU time in ms, or undefined where none can be read. */
function threadCpuClock(): { now: () => number; close: () => void } | undefined {
  try {
    const fd = openSync('/proc/thread-self/schedstat', 'r');
    const buf = Buffer.alloc(128);
    const now = (): number => {
      const n = readSync(fd, buf, 0, buf.length, 0);
      return Number(buf.toString('latin1', 0, n).split(' ')[0]) / 1e6;
    };
    if (Number.isFinite(now())) return { now, close: () => closeSync(fd) };
    closeSync(fd);
  } catch {
    // Not Linux: try the process API.
  }
  const tcu = (process as { threadCpuUsage?: () => { user: number; system: number } }).threadCpuUsage;
  if (typeof tcu !== 'function') return undefined;
  return { now: () => { const u = tcu.call(process); return (u.user + u.system) / 1000; }, close: () => undefined };
}

export interface LoopGap<T> {
  result: T;
  /** Worst wall-clock gap beyond the timer's 1 ms. */
  gapMs: number;
  /** With `cpu: true`: the most main-thread CPU time spent between two ticks (undefined where unmeasurable). */
  cpuMs?: number | undefined;
}

/** Runs `fn` while a 1 ms timer chain ticks; returns its result and the worst gap in ms beyond 1 ms. */
export async function worstGap<T>(fn: () => Promise<T>, opts: { cpu?: boolean } = {}): Promise<LoopGap<T>> {
  const clock = opts.cpu === true ? threadCpuClock() : undefined;
  let worst = 0;
  let worstCpu = 0;
  let last = performance.now();
  let lastCpu = clock?.now() ?? 0;
  let running = true;
  let timer: NodeJS.Timeout | undefined;
  const sample = (): void => {
    const now = performance.now();
    worst = Math.max(worst, now - last - 1);
    last = now;
    if (clock !== undefined) {
      const c = clock.now();
      worstCpu = Math.max(worstCpu, c - lastCpu);
      lastCpu = c;
    }
  };
  const tick = (): void => {
    sample();
    if (running) timer = setTimeout(tick, 1);
  };
  timer = setTimeout(tick, 1);
  try {
    const result = await fn();
    // The gap still open when the call returns counts too.
    sample();
    return { result, gapMs: Math.max(0, worst), ...(opts.cpu === true ? { cpuMs: clock === undefined ? undefined : worstCpu } : {}) };
  } finally {
    running = false;
    clearTimeout(timer);
    clock?.close();
  }
}
