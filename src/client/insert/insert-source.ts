// The caller's input to insert(), read through one gate: it counts the items taken from the
// source and, once the insert settles, lets nothing more be taken and closes the caller's
// iterator. Invariant: after an insert's promise settled, its source is pulled no more (the
// official client pulls nothing after rejecting; a service hands the same generator to the next
// call and must lose no row), its iterator's `return()` has been called, and an error says how
// many rows were taken (`rowsTaken`). A Node Readable is the caller's to end: it is detached
// (its iterator made with `destroyOnReturn: false`), not destroyed, so the rows it has not given
// stay in it. An item the source was still producing when the insert settled is waited for only
// briefly (a source stalled on I/O must not hold the rejection): when it does not come, it is
// counted as taken (the count is an upper bound) and the message says so.
import { isChwireError, replaceMessage } from '../../errors.js';

/** How long a settle waits for an item the source is still producing (ms). */
const PENDING_GRACE_MS = 50;

/** Raised into the insert's own pipeline when something pulls the source after it was closed. */
const CLOSED = Object.freeze({ done: true as const, value: undefined });
export class SourceClosed extends Error {
  override get name(): string { return 'SourceClosed'; }
}

interface Readableish { pipe?: unknown; iterator?: (o: { destroyOnReturn: boolean }) => AsyncIterator<unknown> }

/** The caller's iterator: for a Node Readable one that leaves the stream alive on return(). */
function asyncIteratorOf(rows: AsyncIterable<unknown>): AsyncIterator<unknown> {
  const r = rows as Readableish;
  if (typeof r.pipe === 'function' && typeof r.iterator === 'function') return r.iterator.call(rows, { destroyOnReturn: false });
  return rows[Symbol.asyncIterator]();
}

/** What every gate gives the insert. */
export interface SourceGate {
  /** Items taken from the caller's source (rows, or byte chunks for bytes). */
  readonly taken: number;
  /** Whether an item being produced when the gate closed was counted without being seen. */
  readonly pendingCounted: boolean;
  /** Lets nothing more be taken and calls the source's return(); resolves once the count is final. */
  close(): Promise<void>;
}

/** An async source: one promise per item (the caller's own), no generator layer. */
export class AsyncGate implements SourceGate, AsyncIterableIterator<unknown> {
  taken = 0;
  pendingCounted = false;
  private closed = false;
  private ended = false;
  private pending: Promise<unknown> | undefined;
  private held: { value: unknown } | undefined;
  private readonly it: AsyncIterator<unknown>;
  private readonly onResult = (r: IteratorResult<unknown>): IteratorResult<unknown> => {
    this.pending = undefined;
    if (r.done === true) this.ended = true;
    else this.taken++;
    return r;
  };
  private readonly onError = (e: unknown): never => {
    this.pending = undefined;
    this.ended = true;
    throw e;
  };

  constructor(rows: AsyncIterable<unknown>) {
    this.it = asyncIteratorOf(rows);
  }

  /** The first item, kept to be given again by the next next() (the insert looks at it first). */
  async peek(): Promise<{ first: unknown; empty: boolean }> {
    const r = await this.next();
    if (r.done !== true) this.held = { value: r.value };
    return { first: r.value, empty: r.done === true };
  }

  [Symbol.asyncIterator](): this { return this; }

  next(): Promise<IteratorResult<unknown>> {
    if (this.held !== undefined) { const v = this.held.value; this.held = undefined; return Promise.resolve({ done: false, value: v }); }
    if (this.closed) return Promise.reject(new SourceClosed('the insert has settled: its source is read no more'));
    if (this.ended) return Promise.resolve(CLOSED);
    const p = this.it.next().then(this.onResult, this.onError);
    this.pending = p;
    return p;
  }

  /** A consumer that stops early (a for-await left by an error) does not close the caller's source: the settle does. */
  return(): Promise<IteratorResult<unknown>> {
    return Promise.resolve(CLOSED);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const p = this.pending;
    if (p !== undefined) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = await Promise.race([
        p.then(() => false, () => false),
        new Promise<boolean>((resolve) => { timer = setTimeout(() => resolve(true), PENDING_GRACE_MS); }),
      ]);
      clearTimeout(timer);
      if (late) { this.taken++; this.pendingCounted = true; }
    }
    if (this.ended) return;
    this.ended = true;
    try {
      const r = this.it.return?.();
      if (r !== undefined) void Promise.resolve(r).catch(() => undefined);
    } catch { /* the caller's return() failing is theirs */ }
  }
}

/** A sync source: read synchronously, as the encoder reads it (no promise per item). */
export class SyncGate implements SourceGate, IterableIterator<unknown> {
  taken = 0;
  readonly pendingCounted = false;
  private closed = false;
  private ended = false;
  private held: { value: unknown } | undefined;
  private readonly it: Iterator<unknown>;

  constructor(rows: Iterable<unknown>) {
    this.it = rows[Symbol.iterator]();
  }

  peek(): { first: unknown; empty: boolean } {
    const r = this.next();
    if (r.done !== true) this.held = { value: r.value };
    return { first: r.value, empty: r.done === true };
  }

  [Symbol.iterator](): this { return this; }

  next(): IteratorResult<unknown> {
    if (this.held !== undefined) { const v = this.held.value; this.held = undefined; return { done: false, value: v }; }
    if (this.closed) throw new SourceClosed('the insert has settled: its source is read no more');
    if (this.ended) return CLOSED;
    let r: IteratorResult<unknown>;
    try { r = this.it.next(); } catch (e) { this.ended = true; throw e; }
    if (r.done === true) this.ended = true;
    else this.taken++;
    return r;
  }

  return(): IteratorResult<unknown> {
    return CLOSED;
  }

  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.closed = true;
    if (!this.ended) {
      this.ended = true;
      try { this.it.return?.(); } catch { /* the caller's return() failing is theirs */ }
    }
    return Promise.resolve();
  }
}

/** A gate over any (async) iterable: sync stays sync. */
export function gateOf(rows: Iterable<unknown> | AsyncIterable<unknown>): AsyncGate | SyncGate {
  return Symbol.asyncIterator in rows ? new AsyncGate(rows as AsyncIterable<unknown>) : new SyncGate(rows as Iterable<unknown>);
}

const MARK = Symbol('chwire.insert.taken');

/**
 * `e` saying how many rows the insert took from its source (`rowsTaken`, and in the message).
 * Mutates and returns `e` (once); only a ChwireError is touched (an error the caller's own
 * source threw is theirs, and they know what it gave).
 */
export function withTaken(e: unknown, gate: SourceGate): unknown {
  if (!isChwireError(e) || (e as { [MARK]?: boolean })[MARK] === true) return e;
  const n = gate.taken;
  const pending = gate.pendingCounted ? ', counting one it was still producing' : '';
  const note = `; ${n} row${n === 1 ? ' was' : 's were'} taken from the input${pending} (none after this error)`;
  replaceMessage(e, `${e.message}${note}`);
  Object.defineProperty(e, MARK, { value: true });
  Object.defineProperty(e, 'rowsTaken', { value: n, enumerable: false, configurable: true });
  return e;
}
