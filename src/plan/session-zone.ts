// The zone a DateTime/DateTime64 without its own zone is shown in, when the query's session names one
// (session_timezone): the server prints such values in that zone, so `datetime: 'text'` and Map keys
// (`maps: 'object'`) do too.
//
// Invariant: applied once per column when a decoder is built (to the type node the plan is made
// from, never to the type text reported to the caller); values that are instants (Date, ISO text,
// numbers) do not depend on it. Types that name a zone keep theirs. Values inside Dynamic and JSON
// dynamic paths carry their own type per value and are not rewritten (they print in UTC).
import type { TypeNode } from '../types/ast.js';
import { mapChildren } from '../types/map-children.js';
import { ChwireConfigError } from '../errors.js';

/** Checks the decoder option: undefined, or a non-empty zone name. */
export function checkSessionZone(zone: unknown): string | undefined {
  if (zone === undefined) return undefined;
  if (typeof zone !== 'string' || zone === '') throw new ChwireConfigError('option sessionTimezone must be a non-empty time zone name');
  return zone;
}

/** `t` with every zone-less DateTime/DateTime64 given `zone` (the same node when none changes or zone is undefined). */
export function withSessionZone(t: TypeNode, zone: string | undefined): TypeNode {
  if (zone === undefined) return t;
  const walk = (x: TypeNode): TypeNode => {
    switch (x.kind) {
      case 'DateTime': return x.timezone === undefined ? { ...x, timezone: zone } : x;
      case 'DateTime64': return x.timezone === undefined ? { ...x, timezone: zone } : x;
      default: return mapChildren(x, walk);
    }
  };
  return walk(t);
}
