// Which engine connection a request runs on, and when it may run there. A request without a
// session takes a clean idle connection of the engine's pool (or opens one); a request of a
// client session takes that session's own connection, after the session's previous call is done
// in the engine. Invariant: a lease is handed back (`done`) only once the engine is done with the
// connection, and a connection whose last call failed never runs another caller's query before it
// is proven clean: a pooled one is closed, a session's one is drained (a sentinel query must come
// back as itself) or, failing that, closed, and the session's next call is told it was lost.
import { randomUUID } from 'node:crypto';
import { ChwireConnectionError } from '../errors.js';
import { quoteIdentifier } from '../types/quote.js';
import { chdbError } from './chdb-errors.js';
import { closeConnection, openConnection, returnConnection, takeIdle, type ChdbSession, type Engine } from './chdb-engine.js';
import { within, type WaitLimits } from './chdb-wait.js';

export interface Lease {
  readonly session: ChdbSession;
  /** The engine is done with the connection; `clean`: its last call succeeded. Idempotent. */
  done(clean: boolean): void;
}

interface SessionSlot {
  session: ChdbSession | undefined;
  /** Settles when the session's previous call is done in the engine (and its connection clean). */
  tail: Promise<void>;
  /** Set when the connection could not be proven clean after a failed call and was closed. */
  lost: boolean;
}

/** A statement that changes the connection's own state: a pooled connection is not reused after it. */
const CONNECTION_STATE = /^\s*(?:USE|SET)\b/i;

export class Connections {
  private readonly sessions = new Map<string, SessionSlot>();

  constructor(private readonly engine: Engine, private readonly database: string | undefined) {}

  /** A connection for one call of `sql`; waits within `limits` for a session's previous call. */
  async lease(sessionId: string | undefined, sql: string, limits: WaitLimits): Promise<Lease> {
    if (sessionId === undefined) return this.pooled(sql);
    let slot = this.sessions.get(sessionId);
    if (slot === undefined) { slot = { session: undefined, tail: Promise.resolve(), lost: false }; this.sessions.set(sessionId, slot); }
    const previous = slot.tail;
    let release!: () => void;
    slot.tail = new Promise<void>((r) => { release = r; });
    try {
      await within(previous, limits);
    } catch (e) {
      void previous.then(release);
      throw e;
    }
    try {
      if (slot.lost) {
        this.sessions.delete(sessionId);
        throw new ChwireConnectionError(`the embedded session ${JSON.stringify(sessionId)} was closed after a failed query left its connection unusable; its temporary tables and settings are gone (the next call opens a new one)`);
      }
      slot.session ??= await this.fresh();
    } catch (e) {
      release();
      throw e;
    }
    const s = slot.session;
    let released = false;
    return {
      session: s,
      done: (clean) => {
        if (released) return;
        released = true;
        if (clean) { release(); return; }
        void drain(s).then((ok) => {
          if (!ok) { closeConnection(this.engine, s); slot.session = undefined; slot.lost = true; }
        }).finally(release);
      },
    };
  }

  private async pooled(sql: string): Promise<Lease> {
    const key = this.database ?? '';
    const s = takeIdle(this.engine, key) ?? await this.fresh();
    const keep = !CONNECTION_STATE.test(sql);
    let released = false;
    return { session: s, done: (clean) => { if (!released) { released = true; returnConnection(this.engine, key, s, clean && keep); } } };
  }

  /** A new connection, switched to the configured database. */
  private async fresh(): Promise<ChdbSession> {
    const s = openConnection(this.engine);
    if (this.database !== undefined && this.database !== '') {
      try {
        await s.queryAsync(`USE ${quoteIdentifier(this.database)}`, { format: 'TabSeparated' });
      } catch (e) {
        closeConnection(this.engine, s);
        throw chdbError(e, undefined);
      }
    }
    return s;
  }

  /** Closes the sessions' connections (chdb defers each behind a call still running on it). */
  close(): void {
    for (const slot of this.sessions.values()) if (slot.session !== undefined) closeConnection(this.engine, slot.session);
    this.sessions.clear();
  }
}

/**
 * Proves a connection clean after a failed call: chdb 3.4 answers the next query on it with
 * what is left of the failed result, once. A sentinel query must come back as itself (three tries).
 */
async function drain(s: ChdbSession): Promise<boolean> {
  for (let i = 0; i < 3; i++) {
    if (!s.open) return false;
    const token = `chwire-drain-${randomUUID()}`;
    try {
      const r = await s.queryAsync(`SELECT '${token}'`, { format: 'TabSeparatedRaw' });
      if (new TextDecoder().decode(r.bytes()) === `${token}\n`) return true;
    } catch { /* try again */ }
  }
  return false;
}
