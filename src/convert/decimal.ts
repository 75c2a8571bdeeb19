// Decimal(P, S) unscaled integers → text exactly as ClickHouse prints them, or a double.
//
// Invariant: exact. `decimalToString` never goes through a double; trailing fractional zeros
// are trimmed and an all-zero fraction drops the point (ClickHouse's default
// output_format_decimal_trailing_zeros=0): Decimal(9, 2) -150 → "-1.5", 100 → "1".

/** Exact decimal text of unscaled × 10^-scale. */
export function decimalToString(unscaled: bigint | number, scale: number): string {
  let digits: string;
  let neg: boolean;
  if (typeof unscaled === 'number') {
    neg = unscaled < 0;
    digits = String(neg ? -unscaled : unscaled);
  } else {
    neg = unscaled < 0n;
    digits = (neg ? -unscaled : unscaled).toString();
  }
  if (scale === 0) return neg && digits !== '0' ? '-' + digits : digits;
  if (digits.length <= scale) digits = '0'.repeat(scale - digits.length + 1) + digits;
  const cut = digits.length - scale;
  let end = digits.length;
  while (end > cut && digits.charCodeAt(end - 1) === 48) end--;
  const text = end === cut ? digits.slice(0, cut) : digits.slice(0, cut) + '.' + digits.slice(cut, end);
  return neg && text !== '0' ? '-' + text : text;
}

const POW10: number[] = [];
for (let i = 0, v = 1; i <= 22; i++, v *= 10) POW10.push(v);

/**
 * The double nearest to unscaled × 10^-scale. When both operands are exact doubles (|unscaled|
 * ≤ 2^53, scale ≤ 22) one IEEE division is correctly rounded; otherwise parse the exact text.
 */
export function decimalToNumber(unscaled: bigint | number, scale: number): number {
  if (typeof unscaled === 'number' && Math.abs(unscaled) <= Number.MAX_SAFE_INTEGER && scale <= 22) {
    return scale === 0 ? unscaled : unscaled / POW10[scale]!;
  }
  return Number(decimalToString(unscaled, scale));
}
