/**
 * Commit notifications of one PostgreSQL ledger. Every write transaction ends with `NOTIFY` on the
 * ledger's channel, which PostgreSQL delivers only if the transaction commits; a process that reads
 * LISTENs on a connection of its own and counts what arrives. While that connection is confirmed
 * listening, the count stands for every commit of every process. At any other time (not yet confirmed,
 * dropped, refused) the listener says nothing and the engine reads the chain head as before.
 *
 * A notification is sent as its commit is acknowledged, not before: a caller told of a commit by the
 * writer (a message relayed from it) can reach this process first (measured: about one relay in ten
 * on a loaded machine). So by default a revision is answered after a fence: one trivial query on the
 * listener connection, which PostgreSQL answers only after sending the notifications of every commit
 * acknowledged before the query reached it. One fence serves every read asked before it was sent;
 * it replaces the chain-head read (a pool connection and a three-statement transaction) with one
 * round trip on a connection of its own. The fence asks for the server process it reached, so a
 * pooler that moved the session off the listening process is found out (the chain head from then on).
 * Without the fence (`fence: false`) a revision costs no round trip, and a commit is seen once its
 * notification has arrived.
 */
import { createHash } from 'node:crypto';
import pg from 'pg';
import { ident } from './postgres-schema.js';

/** PostgreSQL's identifier limit (NAMEDATALEN - 1 bytes): a longer channel name would be cut short. */
const MAX_CHANNEL_BYTES = 63;

/**
 * The notification channel of the ledger in `schema`: `ewp:<schema>`, or `ewp:` and a digest of the
 * schema name when that would pass PostgreSQL's 63-byte identifier limit. Channels are per database,
 * as schemas are, so one name per schema is one per ledger.
 */
export function notifyChannel(schema: string): string {
  const plain = `ewp:${schema}`;
  if (Buffer.byteLength(plain) <= MAX_CHANNEL_BYTES) return plain;
  return `ewp:${createHash('sha256')
    .update(schema)
    .digest('hex')
    .slice(0, MAX_CHANNEL_BYTES - 4)}`;
}

/**
 * Where a store's commit listener stands:
 * - `off`: the store was opened with `listen: false`, the server refused `LISTEN` (a hot standby), or its
 *   session was found on another server process than the one listening (a transaction-mode pooler);
 * - `idle`: not started (it starts at the first revision read) or waiting to reconnect;
 * - `connecting`: its connection or `LISTEN` is under way;
 * - `listening`: confirmed; revisions are read without a round trip;
 * - `closed`: the store is closed.
 * Anything but `listening` reads the revision from the chain head.
 */
export type ListenerState = 'off' | 'idle' | 'connecting' | 'listening' | 'closed';

/** First wait before reconnecting a lost listener, doubled per failure up to {@link MAX_RETRY_MS}. */
const MIN_RETRY_MS = 100;
const MAX_RETRY_MS = 5000;

/** SQLSTATEs of a server that will never take `LISTEN` (read-only standby, feature not supported). */
const REFUSED = new Set(['25006', '0A000']);

/** The listener of one store (see the module's comment). */
export class CommitListener {
  readonly channel: string;
  private readonly config: pg.ClientConfig;
  private current: ListenerState;
  /** Notifications heard, plus one per confirmed `LISTEN` (commits missed while down are covered by it). */
  private heard = 0;
  /** The server process that ran `LISTEN` (`pg_backend_pid()`). */
  private backend: number | undefined;
  private client: pg.Client | undefined;
  private retryMs = MIN_RETRY_MS;
  private retry: NodeJS.Timeout | undefined;
  private readonly fenced: boolean;
  /** Without the fence: the value of the current event-loop turn, shared by every read in it. */
  private turn: Promise<string | undefined> | undefined;
  /** The fence on the wire, and the one to send when it is answered (for reads asked meanwhile). */
  private sent: Promise<boolean> | undefined;
  private queued: Promise<boolean> | undefined;

  constructor(config: pg.ClientConfig, schema: string, enabled: boolean, fenced: boolean) {
    this.config = config;
    this.channel = notifyChannel(schema);
    this.current = enabled ? 'idle' : 'off';
    this.fenced = fenced;
  }

  get state(): ListenerState {
    return this.current;
  }

  /**
   * The other-commits part of the revision, or `undefined` (read the chain head) unless the listener
   * is confirmed (and, fenced, its fence answered on the same connection). The first call starts the
   * listener. Without the fence, answered after the poll phase of the current event-loop turn, so a
   * notification (or the end of the connection) that reached this process before the request being
   * served is counted first.
   */
  commits(): Promise<string | undefined> | undefined {
    if (this.current === 'idle' && this.retry === undefined) this.connect();
    const client = this.client;
    if (this.current !== 'listening' || client === undefined) return undefined;
    if (this.fenced) return this.fence(client).then((answered) => (answered && this.client === client ? this.value() : undefined));
    this.turn ??= new Promise((resolve) => {
      setImmediate(() => {
        this.turn = undefined;
        resolve(this.value());
      });
    });
    return this.turn;
  }

  /** Text that never looks like an anchor (`length:head`). */
  private value(): string | undefined {
    return this.current === 'listening' ? `n${this.heard}` : undefined;
  }

  /** A fence sent after this call: the one on the wire was sent before it, so not that one. */
  private fence(client: pg.Client): Promise<boolean> {
    if (this.sent === undefined) return this.send(client);
    this.queued ??= this.sent.then(() => {
      this.queued = undefined;
      return this.send(client);
    });
    return this.queued;
  }

  /**
   * The fence asks for the server process it reaches: another one than the one that ran `LISTEN` means a
   * pooler moves this session between server connections, so notifications cannot be relied on here.
   */
  private send(client: pg.Client): Promise<boolean> {
    const sent: Promise<boolean> = client
      .query('SELECT pg_backend_pid() AS pid')
      .then(
        (r) => this.sameBackend(client, (r.rows[0] as { pid: number } | undefined)?.pid),
        () => false,
      )
      .finally(() => {
        if (this.sent === sent) this.sent = undefined;
      });
    this.sent = sent;
    return sent;
  }

  /** Whether `pid` is the listening server process; if not, notifications are given up for good. */
  private sameBackend(client: pg.Client, pid: number | undefined): boolean {
    if (pid !== undefined && pid === this.backend) return true;
    this.giveUp(client);
    return false;
  }

  /** Notifications cannot serve this store: the chain head from now on. */
  private giveUp(client: pg.Client): void {
    if (this.client !== client) return;
    this.client = undefined;
    this.current = 'off';
    client.end().catch(() => undefined);
  }

  async close(): Promise<void> {
    this.current = 'closed';
    if (this.retry !== undefined) clearTimeout(this.retry);
    this.retry = undefined;
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private connect(): void {
    this.current = 'connecting';
    // Named after its channel, for whoever reads pg_stat_activity (the server cuts it to 63 bytes).
    const client = new pg.Client({ application_name: `ewp listener ${this.channel}`, ...this.config, keepAlive: true });
    this.client = client;
    // The listener never keeps a process alive on its own.
    (client as unknown as { connection?: { stream?: { unref?: () => void } } }).connection?.stream?.unref?.();
    client.on('notification', (message) => {
      if (message.channel === this.channel) this.heard += 1;
    });
    const lost = () => this.lost(client);
    client.on('error', lost);
    client.on('end', lost);
    client
      .connect()
      .then(() => client.query(`LISTEN ${ident(this.channel)}; SELECT pg_backend_pid() AS pid`))
      .then(
        (results) => {
          if (this.client !== client || this.current !== 'connecting') return;
          const pid = ((results as unknown as pg.QueryResult[])[1]?.rows[0] as { pid: number } | undefined)?.pid;
          // The session's process from the startup handshake differs behind a pooler, which forges it:
          // such a session may not keep its LISTEN.
          const own = (client as unknown as { processID?: unknown }).processID;
          if (pid === undefined || (typeof own === 'number' && own !== pid)) {
            this.giveUp(client);
            return;
          }
          this.backend = pid;
          // A new value: commits made while no listener was confirmed were never heard.
          this.heard += 1;
          this.retryMs = MIN_RETRY_MS;
          this.current = 'listening';
        },
        (error: unknown) => {
          const code = (error as { code?: unknown } | null)?.code;
          if (typeof code === 'string' && REFUSED.has(code)) {
            this.giveUp(client);
            return;
          }
          lost();
        },
      );
  }

  /** The connection is gone (or never came): read the chain head until another one is confirmed. */
  private lost(client: pg.Client): void {
    if (this.client !== client) return;
    this.client = undefined;
    client.end().catch(() => undefined);
    if (this.current === 'closed' || this.current === 'off') return;
    this.current = 'idle';
    // Reconnected by the first read after the wait: a process that stops reading stops trying.
    this.retry = setTimeout(() => {
      this.retry = undefined;
    }, this.retryMs);
    this.retry.unref();
    this.retryMs = Math.min(this.retryMs * 2, MAX_RETRY_MS);
  }
}
