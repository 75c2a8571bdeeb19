// query()'s result as @clickhouse/client 1.x hands it out (Node): text(), json(), stream() and
// close() over the response body, which is read once. Node-only (stream() is a node:stream Readable).
// Invariants: text() is the body's bytes decoded as UTF-8; json() parses exactly what the official
// client parses (each line of a streamable JSON format, or the one document of the others) with
// the client's JSON handling; stream() yields arrays of rows, each the text of one line (its
// newline removed) with json(), and drops bytes after the last newline, as the official client does.
import { Readable, Transform, pipeline, type TransformCallback } from 'node:stream';
import { ChwireConfigError } from '../errors.js';
import { isDocumentJson, isStreamable, isStreamableJson, STREAMABLE_JSON_FORMATS, RAW_FORMATS } from './formats.js';
import type { JSONHandling } from './options.js';

// The explicit-resource-management symbols, declared as @types/node declares them, so that these
// declarations type-check under a `lib` without esnext.disposable (ES2020, ES2022; with or without
// DOM; with or without @types/node: test/package.types.test.ts). Declarations merge with the lib's.
declare global {
  interface SymbolConstructor {
    readonly dispose: unique symbol;
    readonly asyncDispose: unique symbol;
  }
}

export type ResponseHeaders = Readonly<Record<string, string | string[] | undefined>>;

/** One line of a streamed result. */
export interface Row<T = unknown> {
  /** The line's text, without its newline. */
  readonly text: string;
  /** The line parsed with the client's JSON handling (JSON formats). */
  json<U = T>(): U;
}

const NEWLINE = 0x0a;

export class ResultSet<Format extends string = string> {
  readonly response_headers: ResponseHeaders;
  private consumed = false;

  constructor(
    private readonly body: Readable,
    private readonly format: Format,
    readonly query_id: string,
    headers: ResponseHeaders,
    private readonly jsonHandling: JSONHandling,
  ) {
    this.response_headers = Object.freeze({ ...headers });
  }

  private take(): Readable {
    if (this.consumed) throw new ChwireConfigError('this result set was already read (text(), json() and stream() read it once)');
    this.consumed = true;
    return this.body;
  }

  /** The whole body as text. */
  async text(): Promise<string> {
    const decoder = new TextDecoder();
    let out = '';
    for await (const chunk of this.take()) out += decoder.decode(chunk as Uint8Array, { stream: true });
    return out + decoder.decode();
  }

  /** The result parsed: an array of the lines' values (streamable JSON formats) or the one document (JSON, JSONCompact, JSONObjectEachRow, …). */
  async json<T = unknown>(): Promise<T> {
    if (isStreamableJson(this.format)) {
      const out: unknown[] = [];
      for await (const rows of this.stream()) for (const r of rows as Row[]) out.push(r.json());
      return out as T;
    }
    if (isDocumentJson(this.format)) return this.jsonHandling.parse(await this.text()) as T;
    throw new ChwireConfigError(`json() needs a JSON format; this result is ${this.format} (read it with text() or stream())`);
  }

  /** A Readable (object mode) of row arrays, one array per chunk received. */
  stream(): Readable {
    if (!isStreamable(this.format)) {
      throw new ChwireConfigError(`${this.format} cannot be streamed row by row; streamable formats: ${[...STREAMABLE_JSON_FORMATS, ...RAW_FORMATS].join(', ')}`);
    }
    const parse = this.jsonHandling.parse;
    const pending: Buffer[] = [];
    const toRows = new Transform({
      objectMode: true,
      autoDestroy: true,
      transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback) {
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

  /** Stops reading: the connection is released and the query stopped on the server. */
  close(): void {
    this.body.destroy();
  }

  [Symbol.dispose](): void {
    this.close();
  }
}
