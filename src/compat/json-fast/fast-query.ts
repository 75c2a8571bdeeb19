// The JSON fast path's part of a compat client: the server facts per credentials (probe.ts, asked
// in the background: queries before its answer go as JSON), the plan of each query before it is
// sent (plan.ts), the statements known to need the server's JSON,
// and the re-send of a query whose result the binary path cannot serve.
//
// Invariant: a query goes by the fast path only when plan.ts says so before sending. A result the
// fast path then cannot serve (a column type outside it, or text() / stream(), whose lines must be
// the server's own bytes) is sent once more as the server's JSON, before any row was handed out,
// with the same query id; its SQL text is remembered (bounded) so that later queries of the same
// text go as JSON at once: a statement is sent twice at most once per client and text.
import type { Readable } from 'node:stream';
import { ServerProbe, type ProbeAnswer } from './probe.js';
import { planBeforeSend, type FastPlan, type ServerFacts } from './plan.js';

/** The statements read as JSON after a re-send (oldest forgotten first). */
const MEMO_LIMIT = 1024;
/** A re-send meets the first request's query still running under the same id (code 216) at most this long. */
const SAME_ID_WAIT_MS = 3000;

export interface FastQuery {
  readonly plan: FastPlan;
  readonly facts: ServerFacts;
}

/** What a fast result set needs of its client: the query sent again as the server's JSON. */
export interface FastSource {
  readonly plan: FastPlan;
  resend(): Promise<Readable>;
}

export class JsonFastPath {
  private readonly probe = new ServerProbe();
  private readonly asJson = new Set<string>();

  constructor(private readonly enabled: boolean) {}

  /** The plan for `sql` in `format`, or undefined (send it as JSON). `client`: whose facts (per credentials). */
  plan(client: object, sql: string, format: string, settings: () => Readonly<Record<string, string>>, session: boolean, defaultParse: boolean,
    run: (sql: string, maxBytes: number) => Promise<ProbeAnswer>): FastQuery | undefined {
    if (!this.enabled || format !== 'JSONEachRow' || session || !defaultParse || this.asJson.has(sql)) return undefined;
    const facts = this.probe.peek(client, run);
    if (facts === undefined) return undefined;
    const plan = planBeforeSend({ format, sqlLength: sql.length, settings: settings(), session, defaultParse }, facts);
    return plan === undefined ? undefined : { plan, facts };
  }

  /**
   * Whether a fast request's failure (before any body) must be met by sending the query as JSON:
   * the server's message names the binary format (a syntax error quotes the statement with its
   * FORMAT clause; a format may refuse a type), so the official client's message would differ.
   * Other failures do not depend on the format and are the caller's error as they are.
   */
  static namesFormat(e: unknown, plan: FastPlan): boolean {
    const message = (e as { message?: unknown } | null)?.message;
    return typeof message === 'string' && message.includes(plan.wireFormat === 'Native' ? 'Native' : 'RowBinary');
  }

  /** `send` once more (as JSON), `sql` remembered as needing JSON; waits out the first request's query id. */
  async resend<T>(sql: string, send: () => Promise<T>): Promise<T> {
    if (this.asJson.size >= MEMO_LIMIT) this.asJson.delete(this.asJson.values().next().value as string);
    this.asJson.add(sql);
    const until = Date.now() + SAME_ID_WAIT_MS;
    for (let wait = 10; ; wait = Math.min(wait * 2, 200)) {
      try {
        return await send();
      } catch (e) {
        // QUERY_WITH_SAME_ID_IS_ALREADY_RUNNING: the cancelled binary request's query has not ended yet.
        if (!sameIdRunning(e) || Date.now() + wait > until) throw e;
        await new Promise((r) => setTimeout(r, wait));
      }
    }
  }
}

/**
 * Code 216 (QUERY_WITH_SAME_ID_IS_ALREADY_RUNNING) in either shape a compat error takes: a
 * ClickHouseError's `code` where the server names its errors, or, from servers that do not (18.16:
 * a plain Error with the server's text), chwire's error as `cause`.
 */
function sameIdRunning(e: unknown): boolean {
  const err = e as { code?: unknown; cause?: { serverCode?: unknown } } | null;
  return err?.code === '216' || err?.cause?.serverCode === 216;
}
