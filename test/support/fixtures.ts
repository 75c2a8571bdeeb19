// Golden payloads from ../shared/spec/fixtures, copied into test/fixtures/spec (the engine's bytes
// and its JSON of the same query; see that folder's README).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

export const FIXTURE_DIR = fileURLToPath(new URL('../../../test/fixtures/spec/', import.meta.url));

export interface FixtureCase {
  name: string;
  query: string;
  setup: string[];
  settings: Record<string, string | number>;
}

export function fixtureIndex(): { clickhouse_version: string; cases: FixtureCase[] } {
  return JSON.parse(readFileSync(join(FIXTURE_DIR, 'index.json'), 'utf8'));
}

export function fixtureBytes(name: string, ext: 'rowbinary' | 'native'): Uint8Array {
  const b = readFileSync(join(FIXTURE_DIR, `${name}.${ext}`));
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}

/** The engine's JSONCompactEachRow rows for a fixture (64-bit ints and decimals quoted). */
export function fixtureJsonRows(name: string): unknown[][] {
  return readFileSync(join(FIXTURE_DIR, `${name}.json`), 'utf8').split('\n').filter((l) => l.length > 0).map((l) => JSON.parse(l) as unknown[]);
}
