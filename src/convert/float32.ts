// Float32 values as the server prints them: the shortest decimal that reads back as the same
// Float32 (`toFloat32(0.1)` → 0.1, where the exact binary value is 0.100000001490116…), returned
// as the double nearest to that decimal, as the server's text parsed by JSON.parse would be.
//
// Invariant: Math.fround(float32Shortest(x)) === x for every Float32 x (NaN and ±Infinity pass
// through, -0 stays -0); among the shortest decimals, the one nearest x, a tie going to the even
// last digit (the engine's choice: 170294.625 prints as 170294.62).

/** The shortest round-trip decimal of the Float32 `x` (a double holding a Float32 exactly). */
export function float32Shortest(x: number): number {
  if (x !== x || x === 0 || x === Infinity || x === -Infinity) return x;
  for (let p = 1; p < 9; p++) {
    const d = Number(x.toPrecision(p));
    if (Math.fround(d) !== x) continue;
    // toPrecision rounds a tie away from zero; the other candidate, rounded from just inside |x|,
    // wins when it is as near and ends in an even digit.
    const alt = Number((x * (1 - 2 ** -52)).toPrecision(p));
    if (alt !== d && Math.fround(alt) === x && Math.abs(alt - x) === Math.abs(d - x) && lastDigitEven(alt, p)) return alt;
    return d;
  }
  // Nine significant digits always identify a Float32.
  return Number(x.toPrecision(9));
}

function lastDigitEven(x: number, p: number): boolean {
  const digits = x.toPrecision(p).replace(/e.*$/, '').replace(/[^0-9]/g, '');
  return Number(digits[digits.length - 1]) % 2 === 0;
}
