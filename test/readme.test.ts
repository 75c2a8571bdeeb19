// The README carries the type-mapping table of src/plan/mapping.ts (the same rendering as
// docs/types.md, minus its title); this keeps the README from drifting when the table changes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { renderTypeMapping } from '../src/plan/mapping.js';

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

test('README contains the current type-mapping table', () => {
  const body = renderTypeMapping().split('\n').slice(1).join('\n').trim();
  assert.ok(README.includes(body), 'README type section differs from renderTypeMapping(): copy docs/types.md into it');
});

test('README keeps its two set-up commands', () => {
  assert.match(README, /npm install && npm run demo/);
  assert.match(README, /npm ci && npm test/);
});
