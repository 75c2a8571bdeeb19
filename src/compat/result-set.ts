// query()'s result as @clickhouse/client 1.x hands it out (Node): text(), json(), stream() and
// close() over the response body, which is read once. Node-only (stream() is a node:stream Readable).
// Invariants: text() is the body's bytes decoded as UTF-8; json() parses exactly what the official
// client parses (each line of a streamable JSON format, or the one document of the others) with
// the client's JSON handling; stream() yields arrays of rows, each the text of one line (its
// newline removed) with json(), and drops bytes after the last newline, as the official client does.
// A result of the JSON fast path (json-fast/) holds the rows in a binary format: json() decodes
// them into the values JSON.parse would give; text(), stream() and a column the fast path does not
// serve get the server's JSON by sending the query once more.
import { Readable, Transform, pipeline, type TransformCallback } from 'node:stream';
import { StreamableFormats, isDocumentJson, isStreamable, isStreamableJson } from './formats.js';
import type { JSONHandling } from './options.js';
import type { ResultBudget } from '../client/read/result-limits.js';
import { resultBudget, type ResponseHeaders, type ResultJSONType, type Row } from './result-types.js';
import type { FastSource } from './json-fast/fast-query.js';
import { readFast } from './json-fast/read.js';

// The explicit-resource-management symbols, declared as @types/node declares them, so that these
// declarations type-check under a `lib` without esnext.disposable (ES2020, ES2022; with or without
// DOM; with or without @types/node: test/package.types.test.ts). Declarations merge with the lib's.
declare global {
  interface SymbolConstructor {
    readonly dispose: unique symbol;
    readonly asyncDispose: unique symbol;
  }
}

export type { ResponseHeaders, ResponseJSON, ResultJSONType, Row } from './result-types.js';

const NEWLINE = 0x0a;

export class ResultSet<Format extends string = string> {
  readonly response_headers: ResponseHeaders;
  private consumed = false;

  constructor(
    private body: Readable,
    private readonly format: Format,
    readonly query_id: string,
    headers: ResponseHeaders,
    private readonly jsonHandling: JSONHandling,
    /** Most body bytes text() and json() read (max_result_bytes; 0: none). */
    private readonly maxBytes = 0,
    /** The JSON fast path (json-fast/): `body` is the rows in a binary format, json() decodes them; text() and stream() get the server's JSON. */
    private fast?: FastSource,
  ) {
    this.response_headers = Object.freeze({ ...headers });
  }

  private take(): Readable {
    // The official text (code may match on it); text(), json() and stream() read the body once.
    if (this.consumed) throw new Error('Stream has been already consumed');
    this.consumed = true;
    return this.body;
  }

  /** The whole body as text. */
  async text(): Promise<string> {
    if (this.fast !== undefined && !this.consumed) this.body = await this.asJson(this.fast);
    const budget = this.budget('text()');
    const decoder = new TextDecoder();
    let out = '';
    const body = this.take();
    try {
      for await (const chunk of body) {
        budget.addBytes((chunk as Uint8Array).byteLength);
        out += decoder.decode(chunk as Uint8Array, { stream: true });
      }
    } catch (e) {
      body.destroy();
      throw e;
    }
    return out + decoder.decode();
  }

  private budget(call: string): ResultBudget {
    return resultBudget(this.maxBytes, call, this.query_id);
  }

  /** The result parsed: an array of the lines' values (streamable JSON formats) or the one document (JSON, JSONCompact, JSONObjectEachRow, …). */
  async json<T = unknown>(): Promise<ResultJSONType<T, Format>> {
    const fast = this.fast;
    if (fast !== undefined && !this.consumed) {
      this.fast = undefined;
      const budget = this.budget('json()');
      const rows = await readFast(this.take(), fast.plan, (n) => budget.addBytes(n));
      if (rows !== undefined) return rows as ResultJSONType<T, Format>;
      // A column the fast path cannot serve: the same query as the server's JSON, read as without it.
      this.body = await fast.resend();
      this.consumed = false;
    }
    if (isStreamableJson(this.format)) {
      const out: unknown[] = [];
      for await (const rows of this.rows(this.budget('json()'))) for (const r of rows as Row[]) out.push(r.json());
      return out as ResultJSONType<T, Format>;
    }
    if (isDocumentJson(this.format)) return this.jsonHandling.parse(await this.text()) as ResultJSONType<T, Format>;
    // The official text (a raw format is read with text() or stream()).
    throw new Error(`Cannot decode ${this.format} as JSON`);
  }

  /** A Readable (object mode) of row arrays, one array per chunk received. */
  stream(): Readable {
    const fast = this.fast;
    if (fast !== undefined && !this.consumed && isStreamable(this.format)) {
      // Each row's text is the server's own line: the query is read as the server's JSON.
      this.fast = undefined;
      this.body.destroy();
      this.body = Readable.from((async function* () {
        // Destroyed before or while it is read: the re-sent request is released too.
        let json: Readable | undefined;
        try {
          json = await fast.resend();
          yield* json;
        } finally {
          json?.destroy();
        }
      })(), { objectMode: false });
    }
    return this.rows(undefined);
  }

  /** The fast path left: the binary answer dropped, the query's JSON answer instead. */
  private async asJson(fast: FastSource): Promise<Readable> {
    this.fast = undefined;
    this.body.destroy();
    return fast.resend();
  }

  /** stream(), its bytes counted against `budget` (json()) or not (stream(): it holds no result). */
  private rows(budget: ResultBudget | undefined): Readable {
    if (!isStreamable(this.format)) {
      // The official text (JSON, JSONCompact, … are one document: read them with json()).
      throw new Error(`${this.format} format is not streamable. Streamable formats: ${StreamableFormats.join(',')}`);
    }
    const parse = this.jsonHandling.parse;
    const pending: Buffer[] = [];
    const toRows = new Transform({
      objectMode: true,
      autoDestroy: true,
      transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback) {
        try { budget?.addBytes(chunk.length); } catch (e) { done(e as Error); return; }
        const rows: Row[] = [];
        let from = 0;
        for (let nl = chunk.indexOf(NEWLINE, from); nl !== -1; nl = chunk.indexOf(NEWLINE, from)) {
          let line = chunk.subarray(from, nl);
          if (pending.length > 0) {
            pending.push(line);
            line = Buffer.concat(pending);
            pending.length = 0;
          }
          const text = line.toString('utf8');
          rows.push({ text, json: () => parse(text) as never });
          from = nl + 1;
        }
        if (from < chunk.length) pending.push(chunk.subarray(from));
        if (rows.length > 0) this.push(rows);
        done();
      },
    });
    return pipeline(this.take(), toRows, () => { /* errors reach the consumer through toRows */ });
  }

  /** The official ResultSet.instance: a result set over a byte stream of `format` (exec()'s stream, say). */
  static instance<F extends string>({ stream, format, query_id, response_headers, jsonHandling }: {
    stream: Readable; format: F; query_id: string; log_error?: (err: Error) => void; response_headers: ResponseHeaders; jsonHandling?: JSONHandling;
  }): ResultSet<F> {
    return new ResultSet(stream, format, query_id, response_headers, jsonHandling ?? { parse: JSON.parse, stringify: JSON.stringify });
  }

  /** Stops reading: the connection is released and the query stopped on the server. */
  close(): void {
    this.body.destroy();
  }

  [Symbol.dispose](): void {
    this.close();
  }
}
