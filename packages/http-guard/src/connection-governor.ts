/**
 * Bounded work and memory per connection and in total. Each connection's requests are handled one
 * at a time, in order (HTTP/1.1 answers pipelined requests in order anyway), and the next one only
 * starts while the connection's unsent reply bytes are within its budget and all connections' are
 * within the total budget. While requests wait, the socket is paused, so a client that pipelines
 * and never reads holds at most one read's worth of parsed requests and one reply beyond its budget.
 * Past the total budget, a connection whose replies make no progress is closed.
 *
 * Requests being computed at once, over all connections, are capped too ({@link RequestSlot}): what a
 * request holds while its reply is built (the records it read, the reply text) is bounded by the cap,
 * not by how many clients pipeline. A request holds its slot while its handler runs, never while it
 * waits for its client (a request body arriving, its reply being read).
 *
 * The connection cap is kept here too: a new connection past it evicts the connection whose request
 * body arrives the slowest below the floor ({@link GovernorLimits.bodyRateFloorBytesPerSecond}),
 * else the one idle the longest (nothing in flight, nothing unsent), else it is refused.
 */
import type { Socket } from 'node:net';

/** The limits a {@link ConnectionGovernor} keeps. */
export interface GovernorLimits {
  /** Most connections open at once. */
  maxConnections: number;
  /** Unsent reply bytes of one connection past which its next request waits. */
  connectionReplyBudgetBytes: number;
  /** Unsent reply bytes of all connections past which every next request waits. */
  totalReplyBudgetBytes: number;
  /** Requests one connection may have waiting; past it the connection is closed. */
  maxQueuedRequests: number;
  /** Requests all connections may have waiting; past it the connection with the most is closed. */
  maxQueuedRequestsTotal: number;
  /** Requests whose handlers run at once, over all connections; the next waits for a slot. */
  maxRequestsInFlight: number;
  /** Bytes per second below which a request body, once past its first second, counts as slow. */
  bodyRateFloorBytesPerSecond: number;
}

/**
 * The place of one started request among the {@link GovernorLimits.maxRequestsInFlight}: held while
 * its handler computes, given back while it waits for its client.
 */
export interface RequestSlot {
  /** Give the slot back (the handler is done); idempotent. */
  release(): void;
  /**
   * Wait for `work` (reading from the client) without holding the slot, then take one again
   * (before any request not yet started). The body's progress is reported through `progress`.
   */
  whileClientSends<T>(work: (progress: (bytes: number) => void) => Promise<T>): Promise<T>;
}

/**
 * Node's http server pauses a connection's parser through these socket fields; setting its flag as
 * it does keeps a body read from resuming the socket behind our back.
 */
type HttpSocket = Socket & { _paused?: boolean; parser?: { pause(): void; resume(): void } | null };

interface Connection {
  socket: HttpSocket;
  /** Requests waiting their turn, each a function that starts it. */
  queue: (() => void)[];
  /** A request is being handled (its reply is not finished). */
  busy: boolean;
  /** Whether this governor paused the socket. */
  paused: boolean;
  /** When the connection last started or finished a request (or opened). */
  lastActive: number;
  /** Bytes handed to the kernel at the previous stall check. */
  delivered: number;
  /** Whether the connection waits in a ready lane. */
  readied: boolean;
  /** The request body being received: when it began and how many bytes arrived; null when none is. */
  body: { since: number; bytes: number } | null;
}

/**
 * How long one turn of the event loop may spend starting pipelined requests before it yields to
 * I/O: new connections and other clients are served between slices.
 */
const READY_SLICE_MS = 10;

/** How often a stalled connection is looked for while the total budget is exceeded. */
const STALL_CHECK_MS = 1000;

export class ConnectionGovernor {
  private readonly connections = new Map<Socket, Connection>();
  /** Connections waiting for the total budget. */
  private readonly waiting = new Set<Connection>();
  private stallTimer: NodeJS.Timeout | undefined;
  /**
   * Connections whose next request may start, in arrival order: those that have read all their
   * replies first, then those with unsent bytes (see {@link startReady}).
   */
  private readonly readyLanes: [Connection[], Connection[]] = [[], []];
  private readyScheduled = false;
  /** Requests waiting on all connections. */
  private queued = 0;
  /** Slots held (see {@link RequestSlot}). */
  private running = 0;
  /** Started requests waiting to take a slot again after their client sent its part. */
  private readonly slotWaiters: (() => void)[] = [];
  /** The same, for connections that read their replies and send one request at a time: served first. */
  private readonly politeSlotWaiters: (() => void)[] = [];

  constructor(private readonly limits: GovernorLimits) {}

  /** Open connections. */
  get size(): number {
    return this.connections.size;
  }

  /** Unsent reply bytes of all connections. */
  pendingReplyBytes(): number {
    let total = 0;
    for (const c of this.connections.values()) total += c.socket.writableLength;
    return total;
  }

  /**
   * Take a new connection, evicting the slowest body below the floor, else the longest-idle
   * connection, when the cap is reached.
   * @returns `false` when the cap is reached and no connection is either: the caller refuses it.
   */
  admit(socket: Socket): boolean {
    if (this.connections.size >= this.limits.maxConnections) {
      // A body arriving below the floor goes first: a connection that has just opened is idle too,
      // and must not be the one a slow sender's next connection pushes out.
      let victim = this.slowestBody();
      if (victim === undefined) {
        for (const c of this.connections.values()) {
          if (!this.isIdle(c)) continue;
          if (victim === undefined || c.lastActive < victim.lastActive) victim = c;
        }
      }
      if (victim === undefined) return false;
      this.forget(victim);
      victim.socket.destroy();
    }
    const connection: Connection = { socket, queue: [], busy: false, paused: false, lastActive: Date.now(), delivered: 0, readied: false, body: null };
    this.connections.set(socket, connection);
    socket.once('close', () => this.forget(connection));
    socket.on('drain', () => {
      this.pump(connection);
      this.wakeWaiting();
    });
    return true;
  }

  /** Whether a request or reply of the socket is in progress (so no error reply may be written on it). */
  inFlight(socket: Socket): boolean {
    const c = this.connections.get(socket);
    return c !== undefined && (c.busy || c.queue.length > 0);
  }

  /**
   * Run `start` for a request of `socket` in its turn, once a slot is free. `start` must return a
   * promise that settles when the request's reply is finished (or abandoned), and should release
   * its slot as soon as its handler is done (the slot is released then at the latest). Unknown
   * sockets are ignored (`false`).
   */
  schedule(socket: Socket, start: (slot: RequestSlot) => Promise<void>): boolean {
    const c = this.connections.get(socket);
    if (c === undefined) return false;
    c.queue.push(() => {
      c.busy = true;
      c.lastActive = Date.now();
      this.running += 1;
      const slot = this.slotFor(c);
      start(slot).finally(() => {
        slot.release();
        c.busy = false;
        c.body = null;
        c.lastActive = Date.now();
        this.pump(c);
      });
    });
    this.queued += 1;
    if (c.queue.length > this.limits.maxQueuedRequests) {
      this.forget(c);
      socket.destroy();
      return true;
    }
    if (this.queued > this.limits.maxQueuedRequestsTotal) this.closeLongestQueue();
    this.pump(c);
    return true;
  }

  /**
   * Stop tracking a connection that is closing (a refusal was sent): its further requests are not
   * run, and its place counts no more against the cap.
   */
  release(socket: Socket): void {
    const c = this.connections.get(socket);
    if (c !== undefined) this.forget(c);
  }

  /**
   * Whether a body is being received on the socket slower than the floor: the guarded server drops
   * such a request (408) instead of letting it hold a connection for the whole request timeout.
   */
  bodyTooSlow(socket: Socket, now = Date.now()): boolean {
    const c = this.connections.get(socket);
    return c?.body != null && this.isSlowBody(c.body, now);
  }

  /** Stop tracking every connection (the server is closing). */
  close(): void {
    if (this.stallTimer !== undefined) clearInterval(this.stallTimer);
    this.stallTimer = undefined;
    this.waiting.clear();
    this.connections.clear();
  }

  /**
   * Start queued requests on a later turn of the event loop, for up to {@link READY_SLICE_MS} per
   * turn, one request per connection per pass. Started inline, a reply that completes at once would
   * start the next in the same microtask chain, and pipelining connections would hold the loop
   * (timers, new connections, other clients) as long as they have requests. Connections that read
   * their replies and send one request at a time go before those that leave bytes unsent or
   * pipeline, so a client that behaves is not kept waiting behind clients that do not.
   */
  private startReady(): void {
    this.readyScheduled = false;
    const until = Date.now() + READY_SLICE_MS;
    for (;;) {
      // No free slot: the connections stay in their lanes until a running request gives one back.
      if (!this.slotFree()) return;
      const [first, second] = this.readyLanes;
      const c = first.shift() ?? second.shift();
      if (c === undefined) break;
      if (first.length > 0 && c.queue.length > 1) {
        // Pipelining shows only once its requests are parsed: it goes behind the clients that send one at a time.
        second.push(c);
        continue;
      }
      c.readied = false;
      if (this.connections.get(c.socket) === c && !c.busy && c.queue.length > 0 && this.mayStart(c)) {
        this.queued -= 1;
        (c.queue.shift() as () => void)();
        this.setPaused(c, c.queue.length > 0);
      }
      if (Date.now() >= until) break;
    }
    this.scheduleReady();
  }

  private slotFree(): boolean {
    return this.running < this.limits.maxRequestsInFlight && this.slotWaiters.length === 0 && this.politeSlotWaiters.length === 0;
  }

  private slotFor(c: Connection): RequestSlot {
    let held = true;
    const release = () => {
      if (!held) return;
      held = false;
      this.running -= 1;
      this.grantSlots();
    };
    return {
      release,
      whileClientSends: async (work) => {
        const wasHeld = held;
        release();
        c.body = { since: Date.now(), bytes: 0 };
        try {
          return await work((bytes) => {
            if (c.body !== null) c.body.bytes += bytes;
          });
        } finally {
          c.body = null;
          if (wasHeld) {
            await new Promise<void>((resolve) => {
              // As in the ready lanes, a client that behaves does not wait behind those that pipeline or do not read.
              (c.queue.length === 0 && c.socket.writableLength === 0 ? this.politeSlotWaiters : this.slotWaiters).push(resolve);
              this.grantSlots();
            });
            held = true;
          }
        }
      },
    };
  }

  /** Hand free slots to the requests waiting to resume first, then to requests not yet started. */
  private grantSlots(): void {
    while (this.running < this.limits.maxRequestsInFlight) {
      const next = this.politeSlotWaiters.shift() ?? this.slotWaiters.shift();
      if (next === undefined) break;
      this.running += 1;
      next();
    }
    this.scheduleReady();
  }

  private isSlowBody(body: { since: number; bytes: number }, now: number): boolean {
    const seconds = (now - body.since) / 1000;
    return seconds >= 1 && body.bytes < this.limits.bodyRateFloorBytesPerSecond * seconds;
  }

  /** The connection whose request body arrives the slowest, among those below the floor. */
  private slowestBody(): Connection | undefined {
    const now = Date.now();
    let victim: Connection | undefined;
    let victimRate = Number.POSITIVE_INFINITY;
    for (const c of this.connections.values()) {
      if (c.body === null) continue;
      // Counted over at least a second, so a body that just began is judged by what one second should bring.
      const rate = c.body.bytes / Math.max(1, (now - c.body.since) / 1000);
      if (rate >= this.limits.bodyRateFloorBytesPerSecond || rate >= victimRate) continue;
      victim = c;
      victimRate = rate;
    }
    return victim;
  }

  private scheduleReady(): void {
    if (!this.slotFree()) return;
    if (this.readyScheduled || (this.readyLanes[0].length === 0 && this.readyLanes[1].length === 0)) return;
    this.readyScheduled = true;
    setImmediate(() => this.startReady());
  }

  /** Whether the budgets let the connection start its next request; else it waits for its drain or for the total. */
  private mayStart(c: Connection): boolean {
    // Over its own budget: the socket's 'drain' pumps again.
    if (c.socket.writableLength > this.limits.connectionReplyBudgetBytes) return false;
    if (this.pendingReplyBytes() > this.limits.totalReplyBudgetBytes) {
      this.waiting.add(c);
      this.watchStalls();
      return false;
    }
    this.waiting.delete(c);
    return true;
  }

  /**
   * Close the connection with the most requests waiting: each waiting request holds its parsed
   * request and response objects, so their total is what bounds the memory of paused pipeliners.
   */
  private closeLongestQueue(): void {
    let longest: Connection | undefined;
    for (const c of this.connections.values()) if (longest === undefined || c.queue.length > longest.queue.length) longest = c;
    if (longest === undefined) return;
    this.forget(longest);
    longest.socket.destroy();
  }

  private isIdle(c: Connection): boolean {
    return !c.busy && c.queue.length === 0 && c.socket.writableLength === 0;
  }

  private forget(c: Connection): void {
    if (this.connections.get(c.socket) !== c) return;
    this.connections.delete(c.socket);
    this.waiting.delete(c);
    this.queued -= c.queue.length;
    c.queue.length = 0;
    this.wakeWaiting();
  }

  /** Queue the connection's next request to start if the budgets allow; pause it while requests wait. */
  private pump(c: Connection): void {
    if (this.connections.get(c.socket) !== c) return;
    if (!c.busy && c.queue.length > 0 && !c.readied && this.mayStart(c)) {
      c.readied = true;
      this.readyLanes[c.socket.writableLength === 0 ? 0 : 1].push(c);
      this.scheduleReady();
    }
    this.setPaused(c, c.queue.length > 0);
  }

  private wakeWaiting(): void {
    if (this.waiting.size === 0) return;
    for (const c of [...this.waiting]) {
      if (this.pendingReplyBytes() > this.limits.totalReplyBudgetBytes) return;
      this.waiting.delete(c);
      this.pump(c);
    }
  }

  private setPaused(c: Connection, paused: boolean): void {
    const socket = c.socket;
    if (paused) {
      c.paused = true;
      if (typeof socket._paused === 'boolean') socket._paused = true;
      socket.pause();
    } else if (c.paused) {
      c.paused = false;
      if (socket._paused === true) {
        socket._paused = false;
        socket.parser?.resume();
      }
      socket.resume();
    }
  }

  /**
   * While the total budget is exceeded, once a second, close the connections that delivered nothing
   * since the previous check (they are not reading), those holding the most unsent bytes first,
   * until the total is within the budget.
   */
  private watchStalls(): void {
    if (this.stallTimer !== undefined) return;
    for (const c of this.connections.values()) c.delivered = c.socket.bytesWritten - c.socket.writableLength;
    this.stallTimer = setInterval(() => {
      if (this.waiting.size === 0 || this.pendingReplyBytes() <= this.limits.totalReplyBudgetBytes) {
        clearInterval(this.stallTimer);
        this.stallTimer = undefined;
        this.wakeWaiting();
        return;
      }
      const stalled: Connection[] = [];
      for (const c of this.connections.values()) {
        const delivered = c.socket.bytesWritten - c.socket.writableLength;
        if (delivered === c.delivered && c.socket.writableLength > 0) stalled.push(c);
        c.delivered = delivered;
      }
      stalled.sort((a, b) => b.socket.writableLength - a.socket.writableLength);
      let total = this.pendingReplyBytes();
      for (const c of stalled) {
        if (total <= this.limits.totalReplyBudgetBytes) break;
        total -= c.socket.writableLength;
        this.forget(c);
        c.socket.destroy();
      }
    }, STALL_CHECK_MS);
    this.stallTimer.unref();
  }
}
