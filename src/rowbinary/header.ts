// The RowBinaryWithNamesAndTypes header: VarUInt n, n names, n types (rowbinary.md §1).
//
// Invariant: resumable — when the bytes end inside the header it throws NEED_MORE and consumes
// nothing, so the caller retries from the same offset with more bytes. Types are text by default;
// with `binaryTypes` (the client sent output_format_binary_encode_types_in_binary_format=1) they
// are the binary encoding of rowbinary.md §6. The two cannot be told apart reliably from the bytes
// (text "UInt8" starts with 05, which is also the binary code of UInt128), so the caller says.
import type { TypeNode } from '../types/ast.js';
import { parseType, isTypeTooDeep, typeTooDeep } from '../types/parse.js';
import { printType } from '../types/print.js';
import { NEED_MORE } from '../io/need-more.js';
import { DecodeFault } from '../io/fault.js';
import { createCursor } from '../io/cursor.js';
import { readVarUInt } from '../io/varint.js';
import { readString, readTypeAt } from './readers.js';

export interface HeaderColumn {
  readonly name: string;
  /** The type name as sent (text header) or as printed from the binary encoding. */
  readonly typeText: string;
  readonly type: TypeNode;
}

/** More columns than any server allows (ClickHouse's max_columns_to_read default is 1e6-ish). */
const MAX_COLUMNS = 1_000_000;

/** Read the header at `start`; returns the columns and the offset of the first row. */
export function readHeader(bytes: Uint8Array, start: number, end: number, binaryTypes: boolean): { columns: HeaderColumn[]; offset: number } {
  const c = createCursor(bytes, start, end);
  const n = readVarUInt(c);
  if (n > MAX_COLUMNS) throw new DecodeFault(`header announces ${n} columns`, start);
  if (2 * n > end - c.pos) { c.need = c.pos + 2 * n; throw NEED_MORE; }
  const names: string[] = [];
  for (let i = 0; i < n; i++) names.push(readString(c, false) as string);
  const columns: HeaderColumn[] = [];
  for (let i = 0; i < n; i++) {
    if (binaryTypes) {
      const type = readTypeAt(c);
      columns.push({ name: names[i]!, typeText: printType(type), type });
    } else {
      const at = c.pos;
      const typeText = readString(c, false) as string;
      let type: TypeNode;
      try {
        type = parseType(typeText);
      } catch (e) {
        // Deeper than the decoder's limit: a real type, refused as such (not a corrupt header).
        if (isTypeTooDeep(e)) throw typeTooDeep(typeText, names[i]);
        // A type name the parser rejects is a corrupt header (or a type newer than chwire).
        throw new DecodeFault(`column ${JSON.stringify(names[i])}: unparsable type: ${(e as Error).message}`, at);
      }
      columns.push({ name: names[i]!, typeText, type });
    }
  }
  return { columns, offset: c.pos };
}
