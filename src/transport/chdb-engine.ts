// The embedded engine's process-wide state: the loaded `chdb` module, the one data directory
// libchdb binds per process (shared, refcounted, by every client naming it), its idle
// connections, and the two limits on engine calls. Invariants:
// - a connection runs one engine call at a time, and goes back to the idle pool only once the
//   engine is done with it (native completion, calls abandoned by an abort or a timeout
//   included) and that call succeeded: chdb 3.4 hands the rest of a failed single-shot result
//   to the next query on the same connection, so a connection whose call failed is closed;
// - at most `gate.limit` single-shot calls hold one of libuv's worker threads at once (the rest
//   wait their turn here, where an abort or a timeout can still reach them, not in libuv's queue,
//   where they would also block Node's own fs/dns/zlib work);
// - parameterized calls run one at a time in the process (chdb's binder keeps the parameters in
//   engine-wide state that concurrent calls on other connections would overwrite).
import { ChwireConfigError, ChwireConnectionError } from '../errors.js';

export type ChdbModule = typeof import('chdb');
export type ChdbSession = InstanceType<ChdbModule['Session']>;

/** Counts calls in flight against a limit; waiters are served in order. */
export class Gate {
  private running = 0;
  private readonly waiters: (() => void)[] = [];
  constructor(readonly limit: number) {}

  /** Resolves when a slot is free (and takes it). `giveUp` removes a waiter that stopped waiting. */
  enter(): { ready: Promise<void>; giveUp: () => void } {
    if (this.running < this.limit && this.waiters.length === 0) {
      this.running++;
      return { ready: Promise.resolve(), giveUp: () => undefined };
    }
    let wake!: () => void;
    const ready = new Promise<void>((r) => { wake = () => { this.running++; r(); }; });
    this.waiters.push(wake);
    return { ready, giveUp: () => { const i = this.waiters.indexOf(wake); if (i >= 0) this.waiters.splice(i, 1); else this.leave(); } };
  }

  leave(): void {
    this.running--;
    const next = this.waiters.shift();
    if (next !== undefined) next();
  }

  get busy(): number { return this.running; }
}

export interface Engine {
  readonly key: string;
  readonly mod: ChdbModule;
  /** Data directory (in memory: the temporary one the anchor connection created). */
  readonly path: string;
  /**
   * In memory: the connection that created (and on close removes) the temporary directory. It
   * runs no query and is closed last, so no other connection's close removes the data under the rest.
   */
  readonly anchor: ChdbSession | undefined;
  refs: number;
  closed: boolean;
  /** Idle, clean connections by current database ('' = the engine's default). */
  readonly idle: Map<string, ChdbSession[]>;
  /** Every open connection (closed when the last client lets go of the engine). */
  readonly all: Set<ChdbSession>;
  /** Single-shot calls holding a libuv worker thread. */
  readonly gate: Gate;
  /** Parameterized calls: one at a time in the process. */
  readonly params: Gate;
}

/** Idle connections kept per database; more are closed when released. */
export const IDLE_CONNECTIONS = 8;

// Per process: libchdb binds one data directory at a time.
const engines = new Map<string, Promise<Engine>>();
/** The last engine's shutdown, while connections deferred behind abandoned calls are still closing. */
let shuttingDown: Promise<void> = Promise.resolve();

/** libuv's worker threads (UV_THREADPOOL_SIZE, 4 by default): one stays free for Node's own work. */
export function singleShotLimit(): number {
  const n = Number(process.env['UV_THREADPOOL_SIZE'] ?? 4);
  return Math.max(1, (Number.isInteger(n) && n > 0 ? n : 4) - 1);
}

async function loadChdb(): Promise<ChdbModule> {
  try {
    return await import('chdb');
  } catch (e) {
    throw new ChwireConfigError('chdb:// needs the embedded engine: run `npm install chdb` (an optional peer dependency of chwire)', { cause: e });
  }
}

export async function acquireEngine(key: string): Promise<Engine> {
  let p = engines.get(key);
  if (p === undefined) {
    p = (async () => {
      const mod = await loadChdb();
      for (const k of engines.keys()) {
        if (k !== key) throw new ChwireConfigError(`the embedded engine already has ${k === 'memory' ? 'an in-memory database' : k} open in this process; chdb binds one data directory per process`);
      }
      // A previous engine of this process may still be closing connections behind calls an abort
      // or a timeout abandoned; chdb refuses a new data directory until they are gone.
      await shuttingDown;
      let anchor: ChdbSession | undefined;
      if (key === 'memory') {
        try { anchor = new mod.Session(''); } catch (e) { throw new ChwireConnectionError(`cannot open the embedded engine: ${(e as Error).message}`, { cause: e }); }
      }
      return { key, mod, path: anchor?.path ?? key, anchor, refs: 0, closed: false, idle: new Map(), all: new Set(), gate: new Gate(singleShotLimit()), params: new Gate(1) };
    })();
    engines.set(key, p);
    p.catch(() => engines.delete(key));
  }
  const e = await p;
  e.refs++;
  return e;
}

/** One client lets go of the engine; the last one closes every connection and unbinds the directory. */
export function releaseEngine(engine: Engine): void {
  if (--engine.refs > 0) return;
  engine.closed = true;
  engines.delete(engine.key);
  // chdb defers closing a connection that a call still runs on; nothing here waits for the engine.
  for (const s of engine.all) s.close();
  engine.anchor?.close();
  engine.all.clear();
  engine.idle.clear();
  const previous = shuttingDown;
  shuttingDown = previous.then(() => engine.mod.drainPending()).catch(() => undefined);
}

/** A new connection to the engine's directory. */
export function openConnection(engine: Engine): ChdbSession {
  if (engine.closed) throw new ChwireConnectionError('client is closed');
  try {
    const s = new engine.mod.Session(engine.path);
    engine.all.add(s);
    return s;
  } catch (e) {
    throw new ChwireConnectionError(`cannot open the embedded engine: ${(e as Error).message}`, { cause: e });
  }
}

export function closeConnection(engine: Engine, s: ChdbSession): void {
  engine.all.delete(s);
  s.close();
}

export function takeIdle(engine: Engine, database: string): ChdbSession | undefined {
  const list = engine.idle.get(database);
  for (let s = list?.pop(); s !== undefined; s = list?.pop()) {
    if (s.open) return s;
    engine.all.delete(s);
  }
  return undefined;
}

/** A connection the engine is done with: back to the idle pool when clean, else closed. */
export function returnConnection(engine: Engine, database: string, s: ChdbSession, clean: boolean): void {
  if (!s.open) { engine.all.delete(s); return; }
  if (!clean || engine.closed) { closeConnection(engine, s); return; }
  let list = engine.idle.get(database);
  if (list === undefined) { list = []; engine.idle.set(database, list); }
  if (list.length >= IDLE_CONNECTIONS) closeConnection(engine, s);
  else list.push(s);
}
