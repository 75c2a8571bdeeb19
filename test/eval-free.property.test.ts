// Decoding and encoding without eval: a process started with --disallow-code-generation-from-strings
// (as workerd and a strict CSP refuse `new Function`) detects it and takes the interpreted paths,
// and they give exactly what the generated code gives: for random schemas (every type family the
// writer knows, hostile column names) and values, under random decode options, the RowBinary rows,
// the Native block bytes (or the same ChwireEncodeError), and the Native rows (eager and lazy) are
// deep-equal to this process's compiled results; so are bigints into Float32/Float64 columns (a
// block when exact, else the same ChwireEncodeError).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deserialize, serialize } from 'node:v8';
import fc from 'fast-check';
import { arbBody, writeBody } from './support/rowbinary-writer.js';
import { decodeOptionsArb } from './support/options-arb.js';
import { printType } from '../src/types/print.js';
import { decodeRowBinary } from '../src/rowbinary/decode.js';
import { codeGenerationAllowed } from '../src/codegen/compile.js';
import { runJob, type Job, type Outcome } from './support/eval-free-jobs.js';

const HERE = dirname(fileURLToPath(import.meta.url));

/** Distinct, non-empty names (the encoder refuses duplicates and ''), keeping the hostile ones. */
function uniqueNames(names: readonly string[]): string[] {
  const seen = new Set<string>();
  return names.map((n, k) => {
    let m = n === '' ? `c${k}` : n;
    while (seen.has(m)) m = `${m}_${k}`;
    seen.add(m);
    return m;
  });
}

test('interpreted paths (code generation refused) == generated code: RowBinary rows, Native blocks and rows', () => {
  assert.equal(codeGenerationAllowed(), true, 'this process compiles');
  const arb = fc.tuple(arbBody(), decodeOptionsArb, decodeOptionsArb, fc.constantFrom('object' as const, 'array' as const));
  const jobs: Job[] = fc.sample(arb, { numRuns: 300 }).map(([body, opts, nativeOpts, shape]) => {
    const bytes = writeBody(body.columns, body.rows);
    const names = uniqueNames(body.columns.map((c) => c.name));
    // The rows to encode: the body read back with default options (the values a user would have).
    let arrays: unknown[][] = [];
    try { arrays = decodeRowBinary(bytes, { rows: 'array' }).rows as unknown as unknown[][]; } catch { arrays = []; }
    const rows = shape === 'array' ? arrays : arrays.map((a) => Object.fromEntries(names.map((n, k) => [n, a[k]])));
    return {
      rowbinary: { body: bytes, options: opts },
      encode: { columns: body.columns.map((c, k) => ({ name: names[k]!, type: printType(c.type) })), shape, rows },
      nativeOptions: nativeOpts,
    };
  });
  // Bigints into Float32/Float64 (taken only when exact, else an error): one row per job, so each
  // value's outcome (block or error) is compared on its own.
  const floatBigints = fc.sample(fc.tuple(fc.bigInt({ min: 1n, max: 2n ** 60n }), fc.nat(1030), fc.boolean()).map(([m, s, neg]) => (neg ? -(m << BigInt(s)) : m << BigInt(s))), { numRuns: 60 });
  for (const b of [...floatBigints, 2n ** 24n + 1n, 2n ** 53n + 1n, 2n ** 53n, 2n ** 128n, 2n ** 1024n, -(2n ** 1023n)]) {
    jobs.push({ rowbinary: jobs[0]!.rowbinary, encode: { columns: [{ name: 'f32', type: 'Float32' }, { name: 'f64', type: 'Nullable(Float64)' }], shape: 'array', rows: [[0, b], [b, 0]] }, nativeOptions: {} });
  }
  const dir = mkdtempSync(join(tmpdir(), 'chwire-eval-free-'));
  try {
    const file = join(dir, 'jobs.bin');
    writeFileSync(file, serialize(jobs));
    const out = execFileSync(process.execPath, ['--disallow-code-generation-from-strings', join(HERE, 'support', 'eval-free-child.js'), file], { maxBuffer: 1 << 28 });
    const interpreted = deserialize(out) as Outcome[][];
    assert.equal(interpreted.length, jobs.length);
    let encoded = 0;
    jobs.forEach((job, i) => {
      // The same input as the child's (serialization canonicalises NaN payloads, for one).
      const compiled = runJob(deserialize(serialize(job)) as Job);
      if ('ok' in compiled[1]! && (compiled[1].ok as Uint8Array).length > 0 && 'ok' in compiled[2]!) encoded++;
      // Rows go through the same serialization as the child's before comparing.
      assert.deepStrictEqual(interpreted[i], deserialize(serialize(compiled)), `job ${i}: ${JSON.stringify(job.encode.columns)} options ${JSON.stringify(job.rowbinary.options)}`);
    });
    assert.ok(encoded > jobs.length / 4, `only ${encoded} of ${jobs.length} jobs produced Native blocks`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
