// query()'s result as @clickhouse/client-web 1.x hands it out: text(), json(), stream() and close()
// over the response body (a WHATWG ReadableStream), which is read once. Runtime-neutral.
// Invariants: text() is the body's bytes decoded as UTF-8; json() parses exactly what the official
// web client parses (each line of a streamable JSON format, or the one document of the others) with
// the client's JSON handling; stream() is a ReadableStream of row arrays, one array per chunk that
// completes at least one line, each row the text of one line (its newline removed) with json(), and
// bytes after the last newline are dropped, as the official web client does. text() and json() read
// at most max_result_bytes (resultBudget); stream() holds no result and is not bounded.
import { StreamableFormats, isDocumentJson, isStreamable, isStreamableJson } from '../formats.js';
import type { JSONHandling } from '../options.js';
import { resultBudget, type ResponseHeaders, type ResultJSONType, type Row } from '../result-types.js';
import type { ResultBudget } from '../../client/read/result-limits.js';

// The explicit-resource-management symbols (see ../client.ts): declarations merge with the lib's.
declare global {
  interface SymbolConstructor {
    readonly dispose: unique symbol;
    readonly asyncDispose: unique symbol;
  }
}

const NEWLINE = 0x0a;

export class ResultSet<Format extends string = string> {
  readonly response_headers: ResponseHeaders;
  private consumed = false;

  constructor(
    private readonly body: ReadableStream<Uint8Array>,
    private readonly format: Format,
    readonly query_id: string,
    headers: ResponseHeaders = {},
    private readonly jsonHandling: JSONHandling = { parse: JSON.parse, stringify: JSON.stringify },
    /** Most body bytes text() and json() read (max_result_bytes; 0: none). */
    private readonly maxBytes = 0,
  ) {
    this.response_headers = Object.freeze({ ...headers });
  }

  private markConsumed(): void {
    // The official text (code may match on it): the body is read once.
    if (this.consumed) throw new Error('Stream has been already consumed');
    this.consumed = true;
  }

  private budget(call: string): ResultBudget {
    return resultBudget(this.maxBytes, call, this.query_id);
  }

  /** The whole body as text. */
  async text(): Promise<string> {
    this.markConsumed();
    return this.readText(this.budget('text()'));
  }

  private async readText(budget: ResultBudget): Promise<string> {
    const reader = this.body.getReader();
    const decoder = new TextDecoder();
    let out = '';
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        budget.addBytes(value.byteLength);
        out += decoder.decode(value, { stream: true });
      }
    } catch (e) {
      await reader.cancel().catch(() => undefined);
      throw e;
    }
    return out + decoder.decode();
  }

  /** The result parsed: an array of the lines' values (streamable JSON formats) or the one document (JSON, JSONCompact, JSONObjectEachRow, …). */
  async json<T = unknown>(): Promise<ResultJSONType<T, Format>> {
    if (isStreamableJson(this.format)) {
      this.markConsumed();
      const out: unknown[] = [];
      const reader = this.rows(this.budget('json()')).getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        for (const r of value) out.push(r.json());
      }
      return out as ResultJSONType<T, Format>;
    }
    if (isDocumentJson(this.format)) {
      this.markConsumed();
      return this.jsonHandling.parse(await this.readText(this.budget('json()'))) as ResultJSONType<T, Format>;
    }
    // The official text (a raw format is read with text() or stream()).
    throw new Error(`Cannot decode ${this.format} as JSON`);
  }

  /** A ReadableStream of row arrays. */
  stream<T = unknown>(): ReadableStream<Row<T>[]> {
    this.markConsumed();
    return this.rows(undefined) as ReadableStream<Row<T>[]>;
  }

  /** The body split into rows, its bytes counted against `budget` (json()) or not (stream()). */
  private rows(budget: ResultBudget | undefined): ReadableStream<Row[]> {
    if (!isStreamable(this.format)) {
      // The official text (JSON, JSONCompact, … are one document: read them with json()).
      throw new Error(`${this.format} format is not streamable. Streamable formats: ${StreamableFormats.join(',')}`);
    }
    const parse = this.jsonHandling.parse;
    const decoder = new TextDecoder();
    const pending: Uint8Array[] = [];
    let pendingBytes = 0;
    const toRows = new TransformStream<Uint8Array, Row[]>({
      transform(chunk, controller) {
        budget?.addBytes(chunk.byteLength);
        const rows: Row[] = [];
        let from = 0;
        for (let nl = chunk.indexOf(NEWLINE, from); nl !== -1; nl = chunk.indexOf(NEWLINE, from)) {
          let line = chunk.subarray(from, nl);
          if (pending.length > 0) {
            const whole = new Uint8Array(pendingBytes + line.byteLength);
            let at = 0;
            for (const p of pending) { whole.set(p, at); at += p.byteLength; }
            whole.set(line, at);
            line = whole;
            pending.length = 0;
            pendingBytes = 0;
          }
          const text = decoder.decode(line);
          rows.push({ text, json: () => parse(text) as never });
          from = nl + 1;
        }
        if (from < chunk.byteLength) {
          // Copied: the transport may reuse the chunk's memory once it is handed on.
          const rest = chunk.slice(from);
          pending.push(rest);
          pendingBytes += rest.byteLength;
        }
        if (rows.length > 0) controller.enqueue(rows);
      },
    });
    return this.body.pipeThrough(toRows);
  }

  /** Stops reading: the response is released and the query stopped on the server. */
  async close(): Promise<void> {
    this.markConsumed();
    await this.body.cancel();
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}
