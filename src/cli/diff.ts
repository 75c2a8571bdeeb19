// The line diff `chwire gen --check` prints: unified format as `diff -u` and git print it, from a
// longest common subsequence. Hunks start with `@@ -l,s +l,s @@`, keep `context` unchanged lines
// around each change, and within a change list the removed lines (`-`, on disk) before the added
// ones (`+`, from the server now). Invariant: applying the hunks to the old text gives the new text.

type Op = { readonly t: ' ' | '-' | '+'; readonly line: string };

function lines(text: string): string[] {
  return text === '' ? [] : text.replace(/\n$/, '').split('\n');
}

/** The edit script from a to b: unchanged, removed and added lines in order, removals first in each change. */
function ops(a: readonly string[], b: readonly string[]): Op[] {
  // Trim the common head and tail first: generated files differ in few places.
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const x = a.slice(head, a.length - tail);
  const y = b.slice(head, b.length - tail);
  const out: Op[] = a.slice(0, head).map((line) => ({ t: ' ', line }));
  const n = x.length;
  const m = y.length;
  if (n * m > 25_000_000) {
    out.push(...x.map((line) => ({ t: '-' as const, line })), ...y.map((line) => ({ t: '+' as const, line })));
  } else {
    const lcs: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
    for (let i = n - 1; i >= 0; i--) {
      for (let j = m - 1; j >= 0; j--) {
        lcs[i]![j] = x[i] === y[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
      }
    }
    let i = 0;
    let j = 0;
    let dels: Op[] = [];
    let adds: Op[] = [];
    const flush = (): void => { out.push(...dels, ...adds); dels = []; adds = []; };
    while (i < n || j < m) {
      if (i < n && j < m && x[i] === y[j]) { flush(); out.push({ t: ' ', line: x[i]! }); i++; j++; continue; }
      if (i < n && (j === m || lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) dels.push({ t: '-', line: x[i++]! });
      else adds.push({ t: '+', line: y[j++]! });
    }
    flush();
  }
  out.push(...a.slice(a.length - tail).map((line) => ({ t: ' ' as const, line })));
  return out;
}

/** Unified hunks (each line ending in a newline); empty when the texts are equal. */
export function lineDiff(before: string, after: string, context = 3): string {
  const all = ops(lines(before), lines(after));
  const changed: number[] = [];
  all.forEach((o, k) => { if (o.t !== ' ') changed.push(k); });
  if (changed.length === 0) return '';
  // Line numbers (1-based) of each op in the old and the new text.
  const aAt: number[] = [];
  const bAt: number[] = [];
  let ai = 1;
  let bi = 1;
  for (const o of all) {
    aAt.push(ai);
    bAt.push(bi);
    if (o.t !== '+') ai++;
    if (o.t !== '-') bi++;
  }
  let out = '';
  let k = 0;
  while (k < changed.length) {
    const from = Math.max(0, changed[k]! - context);
    let to = changed[k]! + context; // inclusive
    while (k + 1 < changed.length && changed[k + 1]! - context <= to + 1) to = changed[++k]! + context;
    k++;
    to = Math.min(all.length - 1, to);
    const part = all.slice(from, to + 1);
    const aLen = part.filter((o) => o.t !== '+').length;
    const bLen = part.filter((o) => o.t !== '-').length;
    // As diff -u: a range of length 0 names the line before it.
    const aStart = aLen === 0 ? aAt[from]! - 1 : aAt[from]!;
    const bStart = bLen === 0 ? bAt[from]! - 1 : bAt[from]!;
    out += `@@ -${aStart},${aLen} +${bStart},${bLen} @@\n`;
    for (const o of part) out += `${o.t}${o.line}\n`;
  }
  return out;
}
