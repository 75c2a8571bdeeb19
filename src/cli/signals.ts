// The signals that stop a `chwire` command: SIGINT (Ctrl-C) and SIGTERM (`timeout`, `kill`, a
// container stopping) both abort the running call, so the query stops on the server, and the
// command then exits 128 + the signal's number (130, 143), as a shell reports a process that the
// signal ended. Invariant: while a command runs neither signal ends the process before the call
// has been aborted and the command has cleaned up, unless a second signal comes (then the
// synchronous cleanups run and the process exits at once); the handlers are gone once the command
// ends.

const NUMBERS = { SIGINT: 2, SIGTERM: 15 } as const;
export type StopSignal = keyof typeof NUMBERS;

export interface Interrupt {
  /** Aborted when a signal arrives (or when abort() is called). */
  readonly signal: AbortSignal;
  /** The signal that arrived, if any. */
  received(): StopSignal | undefined;
  /** Aborts the call for a reason of the command's own (a closed stdout): not a signal. */
  abort(reason: Error): void;
  /** A synchronous cleanup that must run even if a second signal ends the process at once. */
  onForcedExit(fn: () => void): void;
  dispose(): void;
}

/** The exit code of a process stopped by `sig`: 128 + its number. */
export function signalExitCode(sig: StopSignal): number {
  return 128 + NUMBERS[sig];
}

export function interruptible(): Interrupt {
  const ac = new AbortController();
  let got: StopSignal | undefined;
  const cleanups: (() => void)[] = [];
  const handlers = (Object.keys(NUMBERS) as StopSignal[]).map((sig) => {
    const on = (): void => {
      if (got !== undefined) {
        // The user insists (a second Ctrl-C): no more waiting for the server.
        for (const fn of cleanups) { try { fn(); } catch { /* best effort */ } }
        process.exit(signalExitCode(got));
      }
      got = sig;
      ac.abort(new Error(`interrupted by ${sig}`));
    };
    process.on(sig, on);
    return [sig, on] as const;
  });
  return {
    signal: ac.signal,
    received: () => got,
    abort: (reason) => ac.abort(reason),
    onForcedExit: (fn) => { cleanups.push(fn); },
    dispose: () => { for (const [sig, on] of handlers) process.off(sig, on); },
  };
}
