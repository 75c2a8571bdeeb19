// What an insert had sent when it failed after its body started: counted per block as the
// transport pulls the body, and written into the error (its message and `insertSent`), so an
// error never reads as if nothing had left when blocks had. Invariant: an error raised after the
// first byte of the body was handed to the transport says how many blocks (and rows) were, an
// upper bound of what the server may have committed (a block counts from its first byte taken,
// whatever sits in socket, proxy or server buffers; its rows are the rows the encoder had read
// when it gave the block, exactly the block's own, not blockSize assumed); the
// insert's own stops (a bad value, a throwing source, an abort while the source is waited for)
// already say exactly what was committed and are left as they are.
import { isChwireError, replaceMessage } from '../../errors.js';

export class SentCount {
  blocks = 0;
  rows = 0;
}

const MARK = Symbol('chwire.insert.sent');

/**
 * `e` with what was sent: its message says so, `insertSent` counts it. Mutates and returns `e`
 * (once). `committed`: the body was ended cleanly after those blocks (an insert's own stop) and
 * the server answered, so they are committed, not only maybe.
 */
export function withSent(e: unknown, sent: SentCount, committed = false): unknown {
  if (sent.blocks === 0 || typeof e !== 'object' || e === null || !(e instanceof Error)) return e;
  if ((e as { [MARK]?: boolean })[MARK] === true) return e;
  const what = `${sent.blocks} block${sent.blocks === 1 ? '' : 's'} (${sent.rows} row${sent.rows === 1 ? '' : 's'}) of this insert had been sent`;
  const note = committed ? `; ${what}: they are committed` : `; ${what} (the last possibly in part): the server may have committed up to that many`;
  replaceMessage(e, `${e.message.replace(/ while the request was waiting for a response/, ' before the server answered')}${note}`);
  Object.defineProperty(e, MARK, { value: true });
  if (isChwireError(e)) Object.defineProperty(e, 'insertSent', { value: { blocks: sent.blocks, rows: sent.rows }, enumerable: false });
  return e;
}
