// The one code emitter of generated decoders: lines with indentation, fresh identifiers, checked
// holes for integers, and a constants table for every value that is not code.
//
// Invariant (the safety rule of the project): the only text that reaches the source is (a) text
// written by chwire's own generators, (b) identifiers from `id()`, (c) integers through `int()`,
// which refuses anything that is not a safe integer, (d) constants as `kN` identifiers bound to
// entries of the array passed to the compiled factory, and (e) property keys through `key()`,
// which quotes them with jsString (literal.ts: one line, U+2028/U+2029 escaped) and turns "__proto__" into a computed key (a quoted "__proto__" in an
// object literal would set the prototype instead of creating an own property).
import { jsString } from './literal.js';

export class Emitter {
  private readonly out: string[] = [];
  private depth = 1;
  private next = 0;
  private readonly constants: unknown[] = [];
  private readonly constIndex = new Map<unknown, number>();
  private readonly perInstance: string[] = [];

  /** A fresh identifier: a fixed prefix chosen by the generator plus a counter. */
  id(prefix: 'v' | 't' | 'n' | 'a' | 'i' | 'm' | 'k' | 'f' | 'd' | 'e'): string {
    return `${prefix}${this.next++}`;
  }

  /** An integer spliced into source; anything else is a bug in the generator. */
  int(n: number): string {
    if (!Number.isSafeInteger(n)) throw new Error(`codegen: not a safe integer: ${String(n)}`);
    return String(n);
  }

  /** A value that is not code (tables, readers, labels): reachable as identifier `kN`. */
  konst(value: unknown): string {
    let i = this.constIndex.get(value);
    if (i === undefined) {
      i = this.constants.length;
      this.constants.push(value);
      this.constIndex.set(value, i);
    }
    return `k${i}`;
  }

  /**
   * Per-instance state (e.g. a per-query converter cache): `init` is generator-written code run
   * each time the factory is called, i.e. once per decoder instance, never shared between them.
   */
  state(init: string): string {
    const id = `s${this.perInstance.length}`;
    this.perInstance.push(`  const ${id} = ${init};`);
    return id;
  }

  /** A property key for an object literal: quoted, and computed for "__proto__". */
  key(name: string): string {
    const quoted = jsString(name);
    return name === '__proto__' ? `[${quoted}]` : quoted;
  }

  line(text: string): void {
    this.out.push('  '.repeat(this.depth) + text);
  }

  /** A line ending in `{`, indenting what follows until close(). */
  open(text: string): void {
    this.line(text);
    this.depth++;
  }

  close(text = '}'): void {
    this.depth--;
    this.line(text);
  }

  /** A line that closes one block and opens the next (`} else {`, `} catch (e) {`). */
  mid(text: string): void {
    this.depth--;
    this.line(text);
    this.depth++;
  }

  get consts(): readonly unknown[] {
    return this.constants;
  }

  /** The finished factory body: constants bound once, then the body, then the sourceURL. */
  finish(kind: string, hash: string): string {
    if (!/^[a-z-]+$/.test(kind) || !/^[0-9a-f]+$/.test(hash)) throw new Error('codegen: bad source name');
    const prologue = this.constants.map((_, i) => `  const k${i} = C[${i}];`);
    return ['"use strict";', ...prologue, ...this.perInstance, ...this.out, `//# sourceURL=chwire/${kind}/${hash}.js`].join('\n');
  }
}
