// A small line diff for `chwire gen --check`: from the first to the last differing line, the lines
// only in the old text (`-`), only in the new one (`+`) and in both (` `), in order, from a longest
// common subsequence. Invariant: replaying the printed lines over the old text from the line the
// `@@` header names gives the new text.

/** `@@ line N @@` then `-old` / `+new` / ` same` lines (each ending in a newline); empty when the texts are equal. */
export function lineDiff(before: string, after: string): string {
  const a = before === '' ? [] : before.replace(/\n$/, '').split('\n');
  const b = after === '' ? [] : after.replace(/\n$/, '').split('\n');
  // Trim the common head and tail first: generated files differ in few places.
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const x = a.slice(head, a.length - tail);
  const y = b.slice(head, b.length - tail);
  if (x.length * y.length > 25_000_000) {
    return [`@@ line ${head + 1} @@\n`, ...x.map((l) => `-${l}\n`), ...y.map((l) => `+${l}\n`)].join('');
  }
  const n = x.length;
  const m = y.length;
  const lcs: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i]![j] = x[i] === y[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  let out = '';
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && x[i] === y[j]) { out += ` ${x[i]}\n`; i++; j++; continue; }
    if (j < m && (i === n || lcs[i]![j + 1]! >= lcs[i + 1]![j]!)) out += `+${y[j++]}\n`;
    else out += `-${x[i++]}\n`;
  }
  if (out !== '') out = `@@ line ${head + 1} @@\n${out}`;
  return out;
}
