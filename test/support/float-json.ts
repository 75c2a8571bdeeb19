// What the engine prints in JSON for a Float32 value: the test oracle shared by the Native encode
// property and its example-based regression test, so the expectation is itself checked against
// the engine's own output (test/native.encode-empty-lc.test.ts), never assumed.

/**
 * The engine prints a Float32 as the shortest decimal that rounds back to it, the nearest such
 * one with ties to an even last digit (62837.0625 prints as 62837.062), and keeps the sign of
 * zero (-0 prints as -0, which JSON.parse reads back as -0).
 * `toPrecision` rounds ties up, so the p-digit candidate is rounded here from v's exact digits.
 */
export function shortestFloat32(v: number): number {
  if (v === 0 || !Number.isFinite(v)) return v;
  const neg = v < 0;
  // A Float32 is exact in a double and its decimal expansion has at most ~112 significant digits.
  const [mant, exp] = Math.abs(v).toExponential(100).split('e') as [string, string];
  const digits = mant.replace('.', '').replace(/0+$/, '') || '0';
  for (let p = 1; p <= 9; p++) {
    let head = BigInt(digits.slice(0, p).padEnd(p, '0'));
    const rest = digits.slice(p);
    const tie = rest.length > 0 && /^50*$/.test(rest);
    if ((rest.length > 0 && rest[0]! > '5') || (rest[0] === '5' && !tie) || (tie && head % 2n === 1n)) head += 1n;
    const x = Number(`${neg ? '-' : ''}${head}e${Number(exp) - (p - 1)}`);
    if (Math.fround(x) === v) return x;
  }
  return v;
}
