// Per-call `auth` of @clickhouse/client 1.x ({ username, password } or { access_token }) over
// chwire, which authenticates per client: one chwire client per distinct credentials, made on
// first use with the compat client's other options and closed with it.
// Invariants: a client is held by each call that uses it (acquire() … release(), from before its
// request to the end of its body) and is never closed while held; of the clients no call holds,
// at most MAX_IDLE are kept (the least recently used is closed past that), so the number of
// tenants is bounded by memory only (each in-flight call keeps its own client); the credentials are
// never logged or put in an error (they key an in-memory map only).
import type { ClientOptions, TransportFactory } from '../client/options/config.js';
import { ChwireConfigError } from '../errors.js';

export type CallAuth = { username?: string; password?: string } | { access_token: string };

/** Clients kept while no call holds them (each keeps its idle sockets: a pool per tenant). */
export const MAX_IDLE = 16;

/** What makes a client: chwire's createClientWith (chwire/compat) or createQueryClientWith (chwire/compat/web, which needs no insert encoders). */
export type MakeClient<C> = (options: ClientOptions, transport: TransportFactory) => C;

/** A client lent to one call: `release()` once the call is over (again: no effect). */
export interface AuthLease<C> {
  readonly client: C;
  release(): void;
}

interface Entry<C> {
  readonly client: C;
  /** Calls holding it. */
  held: number;
}

export class AuthClients<C extends { close(): Promise<void> }> {
  /** In least recently used order (a use moves an entry to the end). */
  private readonly clients = new Map<string, Entry<C>>();
  private idle = 0;

  constructor(private readonly base: ClientOptions, private readonly transport: TransportFactory, private readonly make: MakeClient<C>) {}

  /** The client that authenticates as `auth`, held for the caller until it releases it. */
  acquire(auth: unknown): AuthLease<C> {
    const options = this.optionsFor(auth);
    const key = JSON.stringify([options.username, options.password, options.accessToken]);
    let e = this.clients.get(key);
    if (e !== undefined) {
      this.clients.delete(key);
      if (e.held === 0) this.idle--;
    } else {
      e = { client: this.make(options, this.transport), held: 0 };
    }
    e.held++;
    this.clients.set(key, e);
    const entry = e;
    let released = false;
    return {
      client: entry.client,
      release: () => {
        if (released) return;
        released = true;
        if (--entry.held === 0 && this.clients.get(key) === entry) {
          this.idle++;
          this.evict();
        }
      },
    };
  }

  /** Clients made and not yet closed (held or idle). */
  get size(): number {
    return this.clients.size;
  }

  /** Closes the least recently used idle clients past MAX_IDLE; a held one is never closed. */
  private evict(): void {
    if (this.idle <= MAX_IDLE) return;
    for (const [key, e] of this.clients) {
      if (this.idle <= MAX_IDLE) return;
      if (e.held > 0) continue;
      this.clients.delete(key);
      this.idle--;
      void e.client.close();
    }
  }

  async close(): Promise<void> {
    const all = [...this.clients.values()];
    this.clients.clear();
    this.idle = 0;
    // chwire's close() waits for the calls in flight and refuses new ones.
    await Promise.all(all.map((e) => e.client.close()));
  }

  private optionsFor(auth: unknown): ClientOptions {
    if (typeof auth !== 'object' || auth === null) throw new ChwireConfigError('option auth must be { username, password } or { access_token }');
    const a = auth as Record<string, unknown>;
    const { username: _u, password: _p, accessToken: _t, ...rest } = this.base;
    if (a['access_token'] !== undefined) {
      if (typeof a['access_token'] !== 'string') throw new ChwireConfigError('option auth.access_token must be a string');
      return { ...rest, accessToken: a['access_token'] };
    }
    for (const k of ['username', 'password']) {
      if (a[k] !== undefined && typeof a[k] !== 'string') throw new ChwireConfigError(`option auth.${k} must be a string`);
    }
    return { ...rest, username: (a['username'] as string | undefined) ?? 'default', password: (a['password'] as string | undefined) ?? '' };
  }
}
