// docs/types.md is rendered from the mapping table (src/plan/mapping.ts); this keeps them equal
// (regenerate with UPDATE_SNAPSHOTS=1) and checks the table covers every type family.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderTypeMapping, TYPE_MAPPING } from '../src/plan/mapping.js';
import { PLAIN_KINDS, GEO_KINDS } from '../src/types/ast.js';
import { VALUE_OPTION_KEYS } from '../src/plan/options.js';

const DOC = fileURLToPath(new URL('../../docs/types.md', import.meta.url));

test('docs/types.md is the rendering of the mapping table', () => {
  const text = renderTypeMapping();
  if (process.env.UPDATE_SNAPSHOTS === '1' || !existsSync(DOC)) writeFileSync(DOC, text);
  assert.equal(readFileSync(DOC, 'utf8'), text);
});

test('the mapping table names every type family and every value option', () => {
  const all = TYPE_MAPPING.map((r) => r.types).join(', ');
  const families = [...PLAIN_KINDS, ...GEO_KINDS, 'Decimal', 'FixedString', 'DateTime', 'DateTime64', 'Time64', 'Enum8', 'Enum16', 'Nullable',
    'LowCardinality', 'Array', 'Tuple', 'Map', 'Nested', 'Variant', 'Dynamic', 'JSON', 'Interval', 'SimpleAggregateFunction', 'AggregateFunction', 'QBit'];
  for (const f of families) assert.ok(new RegExp(`\\b${f}\\b`).test(all), `${f} has a row`);
  for (const k of VALUE_OPTION_KEYS) assert.ok(TYPE_MAPPING.some((r) => r.option === k), `option ${k} is documented`);
});
