// The hosts of an HTTP client and the choice of which one a request goes to.
// Invariants: every request the transport makes (queries, the version probe, ping, schema
// lookups) picks its host here; a host that refused or could not be reached is skipped for
// `cooldown` ms while another is up, then exactly one request probes it; when no host is up,
// every host is still tried once per attempt (a call never fails without trying each host).
// A host whose request got no response head within its timeout is *suspect* (skipped like a down
// host, no event) until a short /ping says whether it hangs (then down, `hung`) or was only slow;
// a hung host is never handed a request as its probe: after its cooldown a /ping probes it
// (`probeDue`), so a hung replica costs no call once it is known. `lastError` is cleared when the
// host answers again.
// No URL kept here carries credentials (client/options/url-option.ts removed them), so `snapshot()` is safe to show.

export type LoadBalancing = 'in-order' | 'round-robin' | 'random';
export const LOAD_BALANCING: readonly LoadBalancing[] = ['in-order', 'round-robin', 'random'];

/** One host's public state, as `client.hosts()` returns it. */
export interface HostStatus {
  /** The base URL (no credentials). */
  readonly url: string;
  /** False while the host is in its cooldown after refusing or being unreachable. */
  readonly up: boolean;
  /** The message of the last connection failure (no credentials), undefined when none yet. */
  readonly lastError: string | undefined;
  /** Requests sent to it whose response is not finished yet (a held stream counts). */
  readonly inFlight: number;
  /** Requests sent to it so far. */
  readonly requests: number;
}

export class HostState<A = unknown> {
  up = true;
  /** When the cooldown ends (ms, Date.now()); meaningful while !up. */
  downUntil = 0;
  /** A request is probing this host after its cooldown. */
  probing = false;
  /** Why the host is down: it refused/was unreachable, or it accepted requests and never answered. */
  downFor: 'refused' | 'hung' = 'refused';
  /** A request to it got no response head in time: skipped while a /ping checks whether it hangs. */
  suspect = false;
  lastError: string | undefined = undefined;
  inFlight = 0;
  requests = 0;
  /** `host:port`, for messages. */
  readonly where: string;

  constructor(readonly url: URL, readonly index: number, readonly pool: A) {
    this.where = url.host;
  }

  status(): HostStatus {
    return { url: this.url.href, up: this.up, lastError: this.lastError, inFlight: this.inFlight, requests: this.requests };
  }
}

export class HostSet<A = unknown> {
  private next = 0;

  constructor(
    readonly list: readonly HostState<A>[],
    private readonly policy: LoadBalancing,
    private readonly cooldown: number,
    private readonly random: () => number = Math.random,
    private readonly now: () => number = Date.now,
    /** Called (once per cooldown) when a hung host's cooldown is over: probe it out of band (a /ping). */
    private readonly probeDue: (h: HostState<A>) => void = () => undefined,
  ) {}

  /**
   * The order in which one attempt tries the hosts (it moves on only when a host refuses or is
   * unreachable, since nothing was sent then): first a host whose cooldown is over and that no
   * other request is probing (this request becomes its probe: if it still refuses, the next host
   * is tried at once); then the hosts that are up, in the policy's order, those not yet used by
   * this call first; then the hosts still cooling down.
   */
  order(usedThisCall: ReadonlySet<HostState<A>> = new Set()): HostState<A>[] {
    const n = this.list.length;
    let start = 0;
    if (this.policy === 'round-robin') start = this.next++ % n;
    else if (this.policy === 'random') start = Math.floor(this.random() * n) % n;
    const rotated: HostState<A>[] = [];
    for (let i = 0; i < n; i++) rotated.push(this.list[(start + i) % n]!);
    const now = this.now();
    const fresh: HostState<A>[] = [];
    const used: HostState<A>[] = [];
    const probe: HostState<A>[] = [];
    const cooling: HostState<A>[] = [];
    for (const h of rotated) {
      if (h.up && !h.suspect) (usedThisCall.has(h) ? used : fresh).push(h);
      else if (h.up) cooling.push(h);
      else if (now >= h.downUntil && !h.probing) {
        // A request sent to a hung host would wait its whole timeout: a /ping probes it instead.
        if (h.downFor === 'hung') { h.probing = true; this.probeDue(h); cooling.push(h); } else probe.push(h);
      } else cooling.push(h);
    }
    return [...probe, ...fresh, ...used, ...cooling];
  }

  /** Marks the start of a request on `h` (probing it when it is down). */
  begin(h: HostState<A>): void {
    h.requests++;
    h.inFlight++;
    if (!h.up) h.probing = true;
  }

  /** The host answered (any HTTP response): it is up. */
  reached(h: HostState<A>): void {
    h.probing = false;
    h.suspect = false;
    h.up = true;
    h.lastError = undefined;
  }

  /**
   * A request to `h` got no response head within its timeout: skip it until `confirm` settles it.
   * Returns false when it is already suspect or down (someone else is checking it).
   */
  suspect(h: HostState<A>): boolean {
    if (h.suspect || !h.up) return false;
    h.suspect = true;
    return true;
  }

  /** The check of a suspect host answered: it was only slow, it stays up. */
  cleared(h: HostState<A>): void {
    h.suspect = false;
  }

  /** The host accepts connections but does not answer (a request and a /ping got no response head). */
  hung(h: HostState<A>, message: string): void {
    this.unreachable(h, message);
    h.downFor = 'hung';
  }

  /** The host refused the connection or could not be reached: down for the cooldown. */
  unreachable(h: HostState<A>, message: string): void {
    h.probing = false;
    h.suspect = false;
    h.downFor = 'refused';
    h.lastError = message;
    h.up = false;
    h.downUntil = this.now() + this.cooldown;
  }

  /** A request on `h` ended without telling whether the host is up (it keeps its state). */
  settled(h: HostState<A>): void {
    h.probing = false;
  }

  /** The request's response is finished (or it failed): no longer in flight. */
  end(h: HostState<A>): void {
    h.inFlight--;
  }

  snapshot(): HostStatus[] {
    return this.list.map((h) => h.status());
  }
}
