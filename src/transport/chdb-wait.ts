// Waiting on the embedded engine without being held by it. The engine cannot interrupt a running
// call (chdb has no interrupt in its C API), so an abort or a timeout settles the caller's promise
// at once and leaves the engine call to finish on its own. Invariant: `within` rejects with
// ChwireAbortError as soon as the signal aborts and with ChwireTimeoutError at the deadline,
// whatever `p` does, and leaves no timer or listener behind.
import { ChwireAbortError, ChwireTimeoutError } from '../errors.js';

export interface WaitLimits {
  signal?: AbortSignal | undefined;
  /** performance.now() after which the wait fails; 0: none. */
  deadline: number;
  queryId: string | undefined;
  /** The timeout's message, e.g. "no result chunk … within 300 ms (requestTimeout)". */
  timeoutMessage: () => string;
  /** What was aborted, for the message ("query", "insert"). */
  what: string;
}

export function within<T>(p: Promise<T>, limits: WaitLimits): Promise<T> {
  const { signal, deadline, queryId } = limits;
  if (signal === undefined && deadline === 0) return p;
  return new Promise<T>((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    const onAbort = (): void => { cleanup(); reject(abortError(limits.what, queryId)); };
    const cleanup = (): void => {
      if (timer !== undefined) clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    if (signal?.aborted === true) { onAbort(); return; }
    signal?.addEventListener('abort', onAbort, { once: true });
    if (deadline > 0) {
      timer = setTimeout(() => { cleanup(); reject(new ChwireTimeoutError(limits.timeoutMessage(), { queryId })); }, Math.max(0, deadline - performance.now()));
    }
    p.then((v) => { cleanup(); resolve(v); }, (e: unknown) => { cleanup(); reject(e); });
  });
}

export function abortError(what: string, queryId: string | undefined): ChwireAbortError {
  return new ChwireAbortError(`${what} aborted by its AbortSignal`, { queryId });
}
