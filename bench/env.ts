// The environment a benchmark ran in, printed before the figures and stored with them: figures
// without the machine, its load and the code's commit cannot be compared with anything.
import { execFileSync } from 'node:child_process';
import os from 'node:os';

export interface BenchEnvironment {
  date: string;
  node: string;
  v8: string;
  platform: string;
  cpu: string;
  cores: number;
  /** 1, 5 and 15 minute load averages when the run started (a busy machine makes figures noisy). */
  loadAverage: number[];
  totalMemoryMiB: number;
  /** `git rev-parse HEAD` of the working tree, with `+dirty` when it has uncommitted changes. */
  commit: string;
  /** Whether `gc()` was exposed (`node --expose-gc`): a full collection runs before each timed run. */
  exposeGc: boolean;
}

export function environment(): BenchEnvironment {
  const cpus = os.cpus();
  return {
    date: new Date().toISOString(),
    node: process.version,
    v8: process.versions.v8,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    cpu: cpus[0]?.model.trim() ?? 'unknown',
    cores: cpus.length,
    loadAverage: os.loadavg().map((x) => Math.round(x * 100) / 100),
    totalMemoryMiB: Math.round(os.totalmem() / 2 ** 20),
    commit: gitCommit(),
    exposeGc: typeof (globalThis as { gc?: unknown }).gc === 'function',
  };
}

function gitCommit(): string {
  try {
    const opts = { encoding: 'utf8' as const, stdio: ['ignore', 'pipe', 'ignore'] as ('ignore' | 'pipe')[] };
    const head = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], opts).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], opts).trim() !== '';
    return dirty ? `${head}+dirty` : head;
  } catch {
    return 'unknown (not a git checkout)';
  }
}

export function formatEnvironment(e: BenchEnvironment): string {
  return [
    `date ${e.date} · node ${e.node} (V8 ${e.v8}) · ${e.platform}`,
    `cpu ${e.cpu} × ${e.cores} · load ${e.loadAverage.join(' ')} · memory ${e.totalMemoryMiB} MiB`,
    `chwire ${e.commit} · gc before runs: ${e.exposeGc ? 'yes (--expose-gc)' : 'no (run with node --expose-gc)'}`,
  ].join('\n');
}
