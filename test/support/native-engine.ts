// Test helpers for the Native encoder: write encoded blocks to a temporary file and let the
// embedded engine read them (`file(..., 'Native')`, `INSERT ... FROM INFILE`), so every encoded
// byte is judged by the engine, never by our own decoder.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { engineJsonRows, engineExec } from './engine.js';

const dir = mkdtempSync(join(tmpdir(), 'chwire-native-'));
let seq = 0;

/** Write the chunks of one or more blocks to a fresh temp file; returns its path. */
export function writeNativeFile(blocks: readonly (readonly Uint8Array[])[]): string {
  const path = join(dir, `b${seq++}.native`);
  const parts: Uint8Array[] = [];
  for (const b of blocks) parts.push(...b);
  writeFileSync(path, Buffer.concat(parts));
  return path;
}

function sqlString(s: string): string {
  return `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** The engine's JSONCompactEachRow of the file, optionally with an explicit structure. */
export function engineReadNative(path: string, structure?: string, settings: Record<string, string | number> = {}): Promise<unknown[][]> {
  const args = structure === undefined ? `${sqlString(path)}, 'Native'` : `${sqlString(path)}, 'Native', ${sqlString(structure)}`;
  return engineJsonRows(`SELECT * FROM file(${args})`, settings);
}

/** INSERT the file into a fresh Memory table of `structure` and read the table back. */
export async function engineInsertNative(path: string, table: string, structure: string): Promise<unknown[][]> {
  await engineExec(`DROP TABLE IF EXISTS ${table}`);
  await engineExec(`CREATE TABLE ${table} (${structure}) ENGINE = Memory`);
  await engineExec(`INSERT INTO ${table} FROM INFILE ${sqlString(path)} FORMAT Native`);
  return engineJsonRows(`SELECT * FROM ${table}`);
}

export { sqlString };
