// Decode options for property tests: every value of every option the decoders share (one key may
// be absent, so defaults are exercised too).
import fc from 'fast-check';
import type { DecodeOptions } from '../../src/plan/options.js';

/** One arbitrary per decode option common to the RowBinary and Native decoders. */
export const DECODE_OPTION_ARBS = {
  rows: fc.constantFrom('object' as const, 'array' as const),
  int64: fc.constantFrom('bigint' as const, 'number' as const, 'string' as const),
  decimal: fc.constantFrom('string' as const, 'number' as const),
  datetime: fc.constantFrom('Date' as const, 'string' as const, 'number' as const),
  date: fc.constantFrom('Date' as const, 'string' as const),
  strings: fc.constantFrom('string' as const, 'bytes' as const),
  uuid: fc.constantFrom('string' as const, 'bytes' as const),
  maps: fc.constantFrom('object' as const, 'Map' as const),
};

export const decodeOptionsArb: fc.Arbitrary<DecodeOptions> = fc.record(DECODE_OPTION_ARBS, { requiredKeys: [] });
