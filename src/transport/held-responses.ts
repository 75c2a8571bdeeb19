// The responses of a host whose bodies are not finished, and the bounded wait for a pooled socket.
// A response holds its socket until its body has been read to the end, cancelled or broken; a
// stream iterated once and then forgotten holds it for ever. When every socket of a host is held,
// a new request waits in the agent's queue: that wait counts against requestTimeout and ends in a
// ChwireTimeoutError that names the pool's state and the responses holding it.
// Invariant: an entry is removed exactly once, when its body ends in any way; reading a chunk
// costs one clock read.
import type http from 'node:http';

export interface OpenResponse {
  readonly queryId: string | undefined;
  /** When the consumer last pulled a chunk (or the response started), ms. */
  lastPull: number;
  /** The consumer is waiting for the network right now (so it is not holding the socket idle). */
  pulling: boolean;
}

export class OpenResponses {
  private readonly open = new Set<OpenResponse>();

  add(queryId: string | undefined): OpenResponse {
    const r: OpenResponse = { queryId, lastPull: Date.now(), pulling: false };
    this.open.add(r);
    return r;
  }

  remove(r: OpenResponse): void {
    this.open.delete(r);
  }

  /** Responses whose consumer is not reading, longest idle first. */
  held(now: number = Date.now()): { queryId: string | undefined; idleMs: number }[] {
    const out: { queryId: string | undefined; idleMs: number }[] = [];
    for (const r of this.open) if (!r.pulling) out.push({ queryId: r.queryId, idleMs: now - r.lastPull });
    return out.sort((a, b) => b.idleMs - a.idleMs);
  }

  get size(): number {
    return this.open.size;
  }
}

/** The message of a wait for a pooled socket that ran out of time. */
export function poolExhaustedMessage(where: string, waitedMs: number, bound: string, inUse: number, limit: number, inFlight: number, held: { queryId: string | undefined; idleMs: number }[]): string {
  let msg = `no free connection to ${where} within ${waitedMs} ms (${bound}): the pool is exhausted, ${inUse} of ${limit} connections in use (maxOpenConnections), ${inFlight} requests in flight`;
  if (held.length > 0) {
    const shown = held.slice(0, 10).map((h) => `${h.queryId ?? '(no id)'} idle for ${(h.idleMs / 1000).toFixed(1)} s`);
    msg += `; held by ${held.length} unfinished response${held.length === 1 ? '' : 's'} not being read: ${shown.join(', ')}${held.length > 10 ? ', …' : ''}`;
    msg += '. A stream holds its connection until it is read to the end, cancelled (or its loop left) or the client is closed';
  }
  return msg;
}

/** Whether `req` is still waiting in its agent's queue for a socket. */
export function waitingForSocket(req: http.ClientRequest): boolean {
  return req.socket === null || req.socket === undefined;
}

/** Takes a request that never got a socket out of its agent's queue (so a freed socket is not given to it). */
export function dropQueued(agent: http.Agent, req: http.ClientRequest): void {
  const queues = (agent as unknown as { requests: Record<string, http.ClientRequest[] | undefined> }).requests;
  for (const name of Object.keys(queues)) {
    const q = queues[name];
    if (q === undefined) continue;
    const i = q.indexOf(req);
    if (i >= 0) {
      q.splice(i, 1);
      if (q.length === 0) delete queues[name];
      return;
    }
  }
}
