// Micro-bench: what consuming 200k ready-made rows costs per protocol, to size the per-row share of
// `client.stream()` and to pick the array size of `stream().batches()` (src/client/read/row-stream.ts).
// Paths, alternated, gc before each run: a plain for loop; for-await over an iterator whose next()
// returns Promise.resolve(result) (the shape of the row stream's iterator); an async generator;
// for-await over arrays of 1 024 / 16 384 rows (the shape of batches()).
// Run: node --expose-gc dist/bench/micro/iterate.js
const N = 200_000;
const rows = Array.from({ length: N }, (_, i) => ({ i, s: `row ${i}` }));
const gc = (globalThis as { gc?: () => void }).gc ?? ((): void => {});

function promiseIterator(): AsyncIterable<{ i: number }> {
  let i = 0;
  return {
    [Symbol.asyncIterator]: () => ({
      next: (): Promise<IteratorResult<{ i: number }>> =>
        Promise.resolve(i < N ? { value: rows[i++]!, done: false } : { value: undefined, done: true }),
    }),
  };
}

async function* generator(): AsyncGenerator<{ i: number }> {
  for (let i = 0; i < N; i++) yield rows[i]!;
}

async function* arrays(size: number): AsyncGenerator<{ i: number }[]> {
  for (let i = 0; i < N; i += size) yield rows.slice(i, i + size);
}

const paths: Record<string, () => Promise<number>> = {
  'for loop': async () => { let n = 0; for (let i = 0; i < N; i++) if (rows[i] !== undefined) n++; return n; },
  'for await, Promise.resolve': async () => { let n = 0; for await (const r of promiseIterator()) if (r !== undefined) n++; return n; },
  'for await, async generator': async () => { let n = 0; for await (const r of generator()) if (r !== undefined) n++; return n; },
  'arrays of 1 024': async () => { let n = 0; for await (const b of arrays(1024)) for (const r of b) if (r !== undefined) n++; return n; },
  'arrays of 16 384': async () => { let n = 0; for await (const b of arrays(16384)) for (const r of b) if (r !== undefined) n++; return n; },
};

const times: Record<string, number[]> = Object.fromEntries(Object.keys(paths).map((k) => [k, []]));
const names = Object.keys(paths);
for (let round = 0; round < 13; round++) {
  for (let j = 0; j < names.length; j++) {
    const name = names[(j + round) % names.length]!;
    gc();
    const t = performance.now();
    if ((await paths[name]!()) !== N) throw new Error(`${name} lost rows`);
    if (round >= 2) times[name]!.push(performance.now() - t);
  }
}
for (const name of names) {
  const v = times[name]!.sort((a, b) => a - b);
  const med = v[v.length >> 1]!;
  console.log(`${name.padEnd(28)} ${med.toFixed(2).padStart(7)} ms  ${(med * 1e6 / N).toFixed(0).padStart(4)} ns/row`);
}
