// Before an insert reads zone-less date-time text in a zone ('2024-03-12 02:30:00' into a
// DateTime('Africa/Casablanca'), or into a zone-less DateTime on a server in that zone), the client
// learns that server's own offsets for the zone, once per host and zone (two small queries:
// convert/server-zone-rules.ts), and the encoder reads such text with them: the same instant the
// server would store, whatever tz database this runtime's Intl has (they differ: Casablanca from
// 2026 under tzdata 2026a+, 1974 between Node 20 and 18.16 on Debian).
//
// Invariant: a zone's rules are cached per host (its ServerInfo) for the client's life; rules that
// could not be learnt (a server error, a limit) are not cached and make that zone's zone-less text
// refused for this insert only, naming what failed. The learning is shared by the inserts waiting
// for it; an insert's own abort ends its wait with a ChwireAbortError. UTC zones are never asked.
import { ChwireAbortError } from '../../errors.js';
import type { ServerInfo } from '../../transport/types.js';
import type { TypeNode } from '../../types/ast.js';
import { parseType } from '../../types/parse.js';
import { isUtcZone } from '../../convert/zone-text.js';
import { coarseChangesSql, fineChangesSql, parseChanges, serverZoneRules, RANGE_1900_2299, RANGE_1970_2105, type ServerZoneRules } from '../../convert/server-zone-rules.js';
import { concatBytes } from '../../io/bytes.js';
import type { ClientCore } from '../core.js';

/** The zones zone-less text is read in for these columns: each DateTime type's own, else `fallback` (the server's), UTC ones left out. */
export function textZonesOf(columns: readonly { type: string }[], fallback: string | undefined): string[] {
  const zones = new Set<string>();
  const visit = (t: unknown): void => {
    if (typeof t !== 'object' || t === null) return;
    if (Array.isArray(t)) { for (const x of t) visit(x); return; }
    const n = t as TypeNode;
    if (n.kind === 'DateTime' || n.kind === 'DateTime64') {
      const z = n.timezone ?? fallback ?? 'UTC';
      if (!isUtcZone(z)) zones.add(z);
      return;
    }
    for (const v of Object.values(t)) visit(v);
  };
  for (const c of columns) {
    // Cheap test first: most tables have no date-time column.
    if (c.type.includes('DateTime')) visit(parseType(c.type));
  }
  return [...zones];
}

const byHost = new WeakMap<ServerInfo, Map<string, Promise<ServerZoneRules>>>();

/**
 * Per zone among `zones`: the server's rules, or why they could not be learnt. `info` is the host's
 * (the rules are cached with it).
 */
export async function serverTextZones(
  core: ClientCore, info: ServerInfo, zones: readonly string[], o: { signal?: AbortSignal | undefined; queryId?: string | undefined },
): Promise<ReadonlyMap<string, ServerZoneRules | string>> {
  const out = new Map<string, ServerZoneRules | string>();
  if (zones.length === 0) return out;
  let known = byHost.get(info);
  if (known === undefined) byHost.set(info, known = new Map());
  const cache = known;
  await Promise.all(zones.map(async (zone) => {
    let learn = cache.get(zone);
    if (learn === undefined) {
      // Shared by every insert that waits for it, so no one caller's signal cuts it short.
      learn = learnRules(core, zone, info.major >= 21, o.queryId);
      cache.set(zone, learn);
      // Rules that could not be learnt are asked for again next time.
      learn.catch(() => { if (cache.get(zone) === learn) cache.delete(zone); });
    }
    try {
      out.set(zone, await untilAborted(learn, o.signal, o.queryId));
    } catch (e) {
      if (e instanceof ChwireAbortError) throw e;
      out.set(zone, `the server's offsets for ${zone}, which such text is read with, could not be learnt (${e instanceof Error ? e.message : String(e)})`);
    }
  }));
  return out;
}

/** `p`, or a ChwireAbortError as soon as this caller's signal aborts (the shared work goes on). */
function untilAborted<T>(p: Promise<T>, signal: AbortSignal | undefined, queryId: string | undefined): Promise<T> {
  if (signal === undefined) return p;
  if (signal.aborted) return Promise.reject(new ChwireAbortError('insert aborted by its AbortSignal', { queryId }));
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(new ChwireAbortError('insert aborted by its AbortSignal', { queryId }));
    signal.addEventListener('abort', onAbort, { once: true });
    p.then((v) => { signal.removeEventListener('abort', onAbort); resolve(v); }, (e: unknown) => { signal.removeEventListener('abort', onAbort); reject(e); });
  });
}

async function learnRules(core: ClientCore, zone: string, dateTime64: boolean, queryId: string | undefined): Promise<ServerZoneRules> {
  const range = dateTime64 ? RANGE_1900_2299 : RANGE_1970_2105;
  const o = { queryId };
  const coarse = parseChanges(await text(core, coarseChangesSql(zone, range), o));
  if (coarse === undefined || coarse.length === 0) throw new Error('the server answered no offsets');
  const days = coarse.slice(1).map((c) => c.t);
  const fine = days.length === 0 ? [] : parseChanges(await text(core, fineChangesSql(zone, days, range), o));
  const rules = fine === undefined ? undefined : serverZoneRules(zone, coarse[0]!.o, fine, range);
  if (rules === undefined) throw new Error('the server\'s offsets did not chain');
  return rules;
}

async function text(core: ClientCore, sql: string, o: { queryId: string | undefined }): Promise<string> {
  const chunks: Uint8Array[] = [];
  for await (const c of core.internalRaw(sql, { format: 'TabSeparated' }, 'zone-offsets', o.queryId)) chunks.push(c);
  return new TextDecoder().decode(concatBytes(chunks));
}
