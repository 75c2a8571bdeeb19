// A clickhouse-server 18.16 process that a test starts, stops and restarts itself (for failover
// and retries across a restart), configured by .ci/clickhouse-config.sh in a temporary directory
// on free loopback ports. Tests that use it skip when the binary is absent.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const SERVER_BIN = ['/usr/sbin/clickhouse-server', '/usr/bin/clickhouse-server'].find((p) => existsSync(p));
export const SKIP_OWN: string | false = SERVER_BIN === undefined ? 'no clickhouse-server binary to start a server of its own' : false;

async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

export interface OwnServer {
  readonly url: string;
  start(): Promise<void>;
  /** Stops the process (SIGTERM, then waits for it to exit). */
  stop(): Promise<void>;
  /** Stops it and removes its directory. */
  dispose(): Promise<void>;
  /** Sends a signal to the running process (SIGSTOP: it keeps its sockets and answers nothing; SIGCONT resumes it). */
  signal(sig: NodeJS.Signals): void;
}

/** `timezone`: the server's zone (its config's <timezone>, UTC by default). */
export async function ownServer(opts: { timezone?: string } = {}): Promise<OwnServer> {
  const dir = mkdtempSync(join(tmpdir(), 'chwire-own-ch-'));
  const [httpPort, tcpPort] = [await freePort(), await freePort()];
  execFileSync(new URL('../../../.ci/clickhouse-config.sh', import.meta.url).pathname, [dir, String(httpPort), String(tcpPort)]);
  if (opts.timezone !== undefined) {
    const config = join(dir, 'config.xml');
    writeFileSync(config, readFileSync(config, 'utf8').replace('<timezone>UTC</timezone>', `<timezone>${opts.timezone}</timezone>`));
  }
  const url = `http://127.0.0.1:${httpPort}`;
  let proc: ChildProcess | undefined;
  const stop = async (): Promise<void> => {
    const p = proc;
    proc = undefined;
    if (p === undefined || p.exitCode !== null) return;
    const exited = new Promise((r) => p.once('exit', r));
    p.kill('SIGCONT'); // a stopped process would not act on SIGTERM
    p.kill('SIGTERM');
    const timer = setTimeout(() => p.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };
  const up = async (): Promise<boolean> => {
    try { return (await fetch(`${url}/ping`)).ok; } catch { return false; }
  };
  return {
    url,
    async start() {
      proc = spawn(SERVER_BIN!, [`--config-file=${join(dir, 'config.xml')}`], { stdio: 'ignore' });
      for (let i = 0; i < 120; i++) {
        if (await up()) return;
        if (proc.exitCode !== null) throw new Error(`clickhouse-server exited with ${proc.exitCode} during start-up`);
        await new Promise((r) => setTimeout(r, 250));
      }
      throw new Error('clickhouse-server did not answer /ping within 30 s');
    },
    stop,
    signal(sig) {
      if (proc === undefined || proc.exitCode !== null) throw new Error('the server is not running');
      proc.kill(sig);
    },
    async dispose() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
