// A TCP proxy on 127.0.0.1 in front of a real server that cuts an INSERT's connection after a
// given number of request bytes: what a network failure, a load balancer's limit or a dying
// server does to a streamed insert body. Invariant: only the connection whose request starts an
// INSERT is cut (the client's version probe and schema queries pass), the server receives exactly
// the first `cutAfter` bytes of that request (counted from the chunk that carries `INSERT`), then
// both sockets are destroyed; everything else is forwarded untouched.
import net from 'node:net';
import type { AddressInfo } from 'node:net';

export interface CuttingProxy {
  readonly url: string;
  /** Connections cut so far. */
  readonly cuts: number;
  /** The byte count after which the next INSERT connection is cut (Infinity: never). */
  cutAfter: number;
  close(): Promise<void>;
}

export async function cuttingProxy(target: string, cutAfter: number): Promise<CuttingProxy> {
  const to = new URL(target);
  const open = new Set<net.Socket>();
  const state = { cuts: 0, cutAfter };
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(to.port), to.hostname);
    open.add(client); open.add(upstream);
    const drop = (): void => { client.destroy(); upstream.destroy(); open.delete(client); open.delete(upstream); };
    client.on('error', drop); upstream.on('error', drop);
    client.on('close', drop); upstream.on('close', drop);
    upstream.on('data', (d: Buffer) => { client.write(d); });
    let counting = false;
    let seen = 0;
    client.on('data', (d: Buffer) => {
      if (!counting && d.includes('INSERT')) { counting = true; seen = 0; }
      if (!counting) { upstream.write(d); return; }
      const room = state.cutAfter - seen;
      if (d.length < room) { seen += d.length; upstream.write(d); return; }
      state.cuts++;
      upstream.end(d.subarray(0, Math.max(0, room)), () => drop());
      client.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    get cuts() { return state.cuts; },
    get cutAfter() { return state.cutAfter; },
    set cutAfter(n: number) { state.cutAfter = n; },
    close: () => new Promise<void>((resolve) => { for (const s of open) s.destroy(); server.close(() => resolve()); }),
  };
}
