// What the JSON fast path must know of a server before it may send a query in a binary format:
// its version (which binary format, which JSON rendering), timezone() (zone-less date-times) and
// the settings the user's profile changed (they change the server's JSON as much as a call's do)
// and the values of those the fast path models (a build may have its own defaults).
// One small query, started by the first query that could take the fast path (which goes as JSON),
// once per chwire client (per credentials).
//
// Invariant: a probe that fails, or answers anything but the one expected line, gives undefined
// (then every query goes as JSON, as without the fast path); never an error of the caller's call.
// The answer is bounded (MAX_BYTES) and parsed as data only.
import { MODELLED_NAMES, type ServerFacts } from './plan.js';

// Names from plan.ts's own table: [a-z0-9_] only.
export const PROBE_SQL = `SELECT version() AS v, timezone() AS z, groupArray(name) AS n, groupArray(value) AS x FROM system.settings WHERE changed OR name IN (${MODELLED_NAMES.map((n) => `'${n}'`).join(', ')})`;

const MAX_BYTES = 1 << 20;

/** The facts in the probe's JSONEachRow answer, or undefined when it is not what PROBE_SQL gives. */
export function factsOf(text: string, headers: Readonly<Record<string, string | string[] | undefined>> = {}): ServerFacts | undefined {
  if (text.length > MAX_BYTES) return undefined;
  let o: unknown;
  try { o = JSON.parse(text); } catch { return undefined; }
  if (typeof o !== 'object' || o === null) return undefined;
  const { v, z, n, x } = o as Record<string, unknown>;
  if (typeof v !== 'string' || typeof z !== 'string' || !Array.isArray(n) || !Array.isArray(x) || n.length !== x.length) return undefined;
  const m = /^(\d+)\.(\d+)\./.exec(v);
  if (m === null) return undefined;
  const changed: Record<string, string> = Object.create(null) as Record<string, string>;
  for (let i = 0; i < n.length; i++) {
    if (typeof n[i] !== 'string' || typeof x[i] !== 'string') return undefined;
    changed[n[i] as string] = x[i] as string;
  }
  // The headers of a JSONEachRow answer, which a fast result shows in place of its binary answer's.
  const jsonHeaders: Record<string, string> = {};
  for (const h of ['content-type', 'x-clickhouse-format']) {
    const value = headers[h];
    if (typeof value === 'string') jsonHeaders[h] = value;
  }
  return { major: Number(m[1]), minor: Number(m[2]), timezone: z, changed, jsonHeaders };
}

/** The probe's answer: its body's text and its response headers. */
export interface ProbeAnswer { readonly text: string; readonly headers: Readonly<Record<string, string | string[] | undefined>> }

/**
 * The facts per client (its credentials), asked once, in the background: no call waits for the
 * probe (nor can its abort signal end it), a call made before the answer goes as JSON.
 */
export class ServerProbe {
  private readonly asked = new WeakSet<object>();
  private readonly facts = new WeakMap<object, ServerFacts | undefined>();

  /** The facts when known; otherwise undefined, and the probe started if it was not (`run` sends PROBE_SQL as JSONEachRow). */
  peek(client: object, run: (sql: string, maxBytes: number) => Promise<ProbeAnswer>): ServerFacts | undefined {
    if (!this.asked.has(client)) {
      this.asked.add(client);
      run(PROBE_SQL, MAX_BYTES).then((a) => factsOf(a.text, a.headers), () => undefined).then((f) => { this.facts.set(client, f); }, () => undefined);
    }
    return this.facts.get(client);
  }
}
