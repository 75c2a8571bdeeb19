// One query at a time per session id: ClickHouse rejects a concurrent request on a busy session
// (SESSION_IS_LOCKED), so requests with the same session id wait for each other, in call order.
// Invariant: a lock is always released, whether the query succeeded, failed or was abandoned.

export class SessionLocks {
  private readonly tails = new Map<string, Promise<void>>();

  /** Waits for earlier holders of `sessionId`; resolves with the function that releases it. */
  async acquire(sessionId: string | undefined): Promise<() => void> {
    if (sessionId === undefined) return () => undefined;
    const previous = this.tails.get(sessionId) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((r) => { release = r; });
    const tail = previous.then(() => mine);
    this.tails.set(sessionId, tail);
    await previous;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      release();
      if (this.tails.get(sessionId) === tail) this.tails.delete(sessionId);
    };
  }
}
