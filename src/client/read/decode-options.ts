// Splits per-call options into decode options and the rest, and merges decode options over the
// client's defaults (per-column overrides merged column by column). Invariant: an option given
// per call always wins over the client default; nothing is validated here that the decoder's
// own option resolution validates again.
import type { DecodeOptions, ValueOptions } from '../../plan/options.js';
import { VALUE_OPTION_KEYS } from '../../plan/options.js';

const DECODE_KEYS: readonly string[] = [...VALUE_OPTION_KEYS, 'rows'];

export function pickDecodeOptions(o: object | undefined): DecodeOptions {
  const out: Record<string, unknown> = {};
  if (o === undefined) return out;
  for (const k of DECODE_KEYS) {
    const v = (o as Record<string, unknown>)[k];
    if (v !== undefined) out[k] = v;
  }
  const cols = (o as { columns?: unknown }).columns;
  if (cols !== undefined && cols !== null && typeof cols === 'object' && !Array.isArray(cols)) out['columns'] = cols;
  return out as DecodeOptions;
}

export function mergeDecodeOptions(base: DecodeOptions, over: DecodeOptions): DecodeOptions {
  const merged: Record<string, unknown> = { ...base, ...over };
  if (base.columns !== undefined || over.columns !== undefined) {
    const cols: Record<string, ValueOptions> = {};
    for (const src of [base.columns, over.columns]) {
      if (src === undefined) continue;
      for (const name of Object.keys(src)) cols[name] = { ...cols[name], ...src[name] };
    }
    merged['columns'] = cols;
  }
  return merged as DecodeOptions;
}
