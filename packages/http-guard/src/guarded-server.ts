/**
 * The one hardened `node:http` server of the EWP HTTP servers (the MCP server, `ewp inspect`, and
 * the REST routes served beside MCP): timeouts, header and body limits, the 400/403/408/413/431/503
 * replies, the Host/Origin guard, and the connection and memory budgets of
 * {@link ConnectionGovernor}. A server supplies its handler and the JSON body of its error replies.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { ConnectionGovernor, type RequestSlot } from './connection-governor.js';
import { createHostGuard, type HostGuardOptions } from './host-guard.js';
import { readRequestBody } from './request-body.js';
import { parseRequestTarget, type RequestTarget } from './request-target.js';

/** The limits of a guarded server. Every field has a default ({@link DEFAULT_HTTP_LIMITS}). */
export interface HttpLimits {
  /** Most connections open at once; past it the longest-idle one is evicted, else 503. */
  maxConnections: number;
  /** Time a client has to send a request's headers, from its first byte or from connecting. */
  headersTimeoutMs: number;
  /** Time a client has to send a whole request, headers and body. */
  requestTimeoutMs: number;
  /** How long an idle keep-alive connection stays open after a reply. */
  keepAliveTimeoutMs: number;
  /** A connection with no byte read or written for this long is closed (a client that stopped reading). */
  idleTimeoutMs: number;
  /** Largest request line plus headers; past it 431. */
  maxHeaderBytes: number;
  /** Largest request body; past it 413 and the connection is closed. */
  maxBodyBytes: number;
  /** Time a request's body has to arrive whole, from when its handler reads it; past it 408 and the connection is closed. */
  bodyTimeoutMs: number;
  /**
   * Bytes per second a request body must average from its first second on; below it 408 and the
   * connection is closed, and past the connection cap such a connection is the one evicted.
   */
  bodyRateFloorBytesPerSecond: number;
  /** Unsent reply bytes of one connection past which its next request waits (and the socket is paused). */
  connectionReplyBudgetBytes: number;
  /** Unsent reply bytes of all connections past which every next request waits. */
  totalReplyBudgetBytes: number;
  /**
   * Pipelined requests one connection may have waiting; past it the connection is closed. Each
   * waiting request holds its parsed request and response: a client whose one socket read carries
   * more small requests than this is closed rather than paused (a client that pipelines a few hundred
   * requests and reads its replies is served).
   */
  maxQueuedRequests: number;
  /**
   * Pipelined requests all connections may have waiting (each holds its parsed request and response,
   * a few kilobytes); past it the connection with the most waiting is closed.
   */
  maxQueuedRequestsTotal: number;
  /**
   * Requests whose handlers run at once, over all connections (a request waiting for its body or
   * for its client to read its reply holds none); the next waits its turn. Bounds the memory of the
   * replies being built, whatever number of clients pipeline.
   */
  maxRequestsInFlight: number;
  /** The `Retry-After` (seconds) of a 503 past the connection cap. */
  retryAfterSeconds: number;
}

/** The defaults of {@link HttpLimits}, shared by every EWP HTTP server. */
export const DEFAULT_HTTP_LIMITS: Readonly<HttpLimits> = Object.freeze({
  maxConnections: 128,
  headersTimeoutMs: 5_000,
  requestTimeoutMs: 15_000,
  keepAliveTimeoutMs: 5_000,
  idleTimeoutMs: 30_000,
  maxHeaderBytes: 16 * 1024,
  maxBodyBytes: 1024 * 1024,
  bodyTimeoutMs: 10_000,
  bodyRateFloorBytesPerSecond: 1024,
  connectionReplyBudgetBytes: 64 * 1024,
  totalReplyBudgetBytes: 64 * 1024 * 1024,
  maxQueuedRequests: 512,
  maxQueuedRequestsTotal: 1024,
  maxRequestsInFlight: 8,
  retryAfterSeconds: 1,
});

/** What the guard hands a handler besides the request and the response. */
export interface GuardedRequest {
  /** The request target, well formed (a malformed one was answered 400). */
  target: RequestTarget;
  /**
   * The body within the body limit; `undefined` when it was larger, in which case the guard has
   * answered 413 and the handler must stop.
   */
  readBody(): Promise<Buffer | undefined>;
}

/** A server's request handler. A throw is answered 500 (`internal error`), never with its message. */
export type GuardedHandler = (req: IncomingMessage, res: ServerResponse, request: GuardedRequest) => Promise<void>;

/** Options of {@link createGuardedServer}. */
export interface GuardedServerOptions extends HostGuardOptions {
  limits?: Partial<HttpLimits>;
  /** The JSON body of an error reply (default `{ "error": message }`). */
  errorBody?: (status: number, message: string) => unknown;
  /** Headers every reply of the guard carries (a server's security headers). */
  headers?: Record<string, string>;
}

/** A guarded server, not yet listening. */
export interface GuardedServer {
  http: Server;
  /** The limits in force. */
  limits: Readonly<HttpLimits>;
  /** Listen on `port` (0: a free one) at the bind host; resolves with the address. */
  listen(port: number): Promise<AddressInfo>;
  /** Unsent reply bytes of all connections (for tests and diagnostics). */
  pendingReplyBytes(): number;
  /** Stop listening and close every connection. */
  close(): Promise<void>;
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  413: 'Content Too Large',
  431: 'Request Header Fields Too Large',
  503: 'Service Unavailable',
};

/** How long a refused or failed connection may take to read its reply before it is destroyed. */
const LINGER_MS = 2000;

/**
 * Create the hardened server for `handler` (not yet listening). Before the handler runs, the guard answers: 400 for a
 * malformed request (bad syntax, a bad request target or percent-encoding, a bad `Content-Length`,
 * no `Host`), 403 for a foreign `Host` or `Origin`, 413 for a declared body over the limit, 431 for
 * a request line or headers over the limit, 408 when headers or a request take too long (or a body
 * arrives slower than the floor), and 503 with `Retry-After` when the connection cap is reached and
 * no connection is idle or receiving a body below the floor.
 * @throws UnsafeBindError when `bindHost` is beyond loopback and no `allowedHosts` are given
 */
export async function createGuardedServer(options: GuardedServerOptions, handler: GuardedHandler): Promise<GuardedServer> {
  const limits: Readonly<HttpLimits> = Object.freeze({ ...DEFAULT_HTTP_LIMITS, ...options.limits });
  const guard = createHostGuard(options);
  const errorBody = options.errorBody ?? ((_status: number, message: string) => ({ error: message }));
  const extraHeaders = options.headers ?? {};
  const governor = new ConnectionGovernor(limits);

  const errorBytes = (status: number, message: string) => Buffer.from(JSON.stringify(errorBody(status, message)), 'utf8');

  /** A reply written on the bare socket (no request was parsed, or none may be), then the connection ends. */
  function rawReply(socket: Socket, status: number, message: string, headers: Record<string, string> = {}): void {
    const body = errorBytes(status, message);
    const lines = [
      `HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? 'Error'}`,
      'connection: close',
      'content-type: application/json',
      `content-length: ${body.length}`,
    ];
    for (const [name, value] of Object.entries({ ...extraHeaders, ...headers })) lines.push(`${name}: ${value}`);
    socket.end(Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), body]));
    lingerThenDestroy(socket);
  }

  /** Let the peer read what was sent, then free the descriptor whatever it does. */
  function lingerThenDestroy(socket: Socket): void {
    governor.release(socket);
    // Reading on discards what the peer still sends, so closing does not reset the connection and lose the reply.
    socket.resume();
    setTimeout(() => socket.destroy(), LINGER_MS).unref();
  }

  function refuse(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    const body = errorBytes(status, message);
    res.writeHead(status, { ...extraHeaders, 'content-type': 'application/json', 'content-length': body.length, ...headers });
    res.end(body);
  }

  /** Answer and close: what follows on the connection (the rest of a body, a pipelined request) is not read. */
  function refuseAndClose(socket: Socket, res: ServerResponse, status: number, message: string): void {
    refuse(res, status, message, { connection: 'close' });
    res.once('finish', () => lingerThenDestroy(socket));
  }

  function finished(res: ServerResponse): Promise<void> {
    if (res.writableFinished || res.destroyed) return Promise.resolve();
    return new Promise((resolve) => {
      res.once('finish', () => resolve());
      res.once('close', () => resolve());
    });
  }

  async function run(socket: Socket, req: IncomingMessage, res: ServerResponse, slot: RequestSlot): Promise<void> {
    const verdict = guard(req.headers);
    if (!verdict.ok) {
      if (verdict.reason === 'missing host') return refuseAndClose(socket, res, 400, 'a Host header is required');
      return refuseAndClose(socket, res, 403, verdict.reason);
    }
    const target = parseRequestTarget(req.url ?? '');
    if ('refused' in target) return refuse(res, 400, target.refused);
    const declared = req.headers['content-length'];
    if (declared !== undefined) {
      if (!/^\d{1,15}$/.test(declared.trim())) return refuseAndClose(socket, res, 400, 'bad Content-Length');
      if (Number(declared) > limits.maxBodyBytes) return refuseAndClose(socket, res, 413, `request body larger than ${limits.maxBodyBytes} bytes`);
    }
    const request: GuardedRequest = {
      target,
      readBody: async () => {
        // Waiting for the client holds no slot: a slow sender delays only itself.
        const body = await slot.whileClientSends((progress) =>
          readRequestBody(req, {
            maxBytes: limits.maxBodyBytes,
            deadlineMs: limits.bodyTimeoutMs,
            tooSlow: () => governor.bodyTooSlow(socket),
            progress,
          }),
        );
        if (body === 'too-large') refuseAndClose(socket, res, 413, `request body larger than ${limits.maxBodyBytes} bytes`);
        else if (body === 'too-slow') refuseAndClose(socket, res, 408, 'request body not received in time');
        else if (body !== 'aborted') return body;
        return undefined;
      },
    };
    try {
      await handler(req, res, request);
    } catch {
      // The handler's message may name internals (paths, SQL): the client learns only that it failed.
      refuse(res, 500, 'internal error');
    }
  }

  // Loaded here, not with the package: a process that never serves HTTP (the stdio MCP server) never pays for it.
  const { createServer } = await import('node:http');
  // Headers and request timeouts are enforced by Node's connection check, run at this interval.
  const http = createServer({ maxHeaderSize: limits.maxHeaderBytes, connectionsCheckingInterval: 500, requireHostHeader: false }, (req, res) => {
    // A request on a connection being closed after a refusal is not answered: the linger timer ends it.
    const socket = req.socket;
    governor.schedule(socket, async (slot) => {
      try {
        await run(socket, req, res, slot);
      } finally {
        // The reply is built: waiting for the client to read it holds no slot.
        slot.release();
      }
      await finished(res);
    });
  });
  http.headersTimeout = limits.headersTimeoutMs;
  http.requestTimeout = limits.requestTimeoutMs;
  http.keepAliveTimeout = limits.keepAliveTimeoutMs;
  http.setTimeout(limits.idleTimeoutMs, (socket) => socket.destroy());

  http.on('connection', (socket: Socket) => {
    if (governor.admit(socket)) return;
    rawReply(socket, 503, 'too many connections: retry shortly', { 'retry-after': String(limits.retryAfterSeconds) });
  });

  const answered = new WeakSet<Socket>();
  http.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (answered.has(socket)) return;
    answered.add(socket);
    if (error.code === 'ECONNRESET' || error.code === 'EPIPE' || !socket.writable || governor.inFlight(socket)) {
      socket.destroy();
      return;
    }
    if (error.code === 'HPE_HEADER_OVERFLOW') return rawReply(socket, 431, `request line and headers larger than ${limits.maxHeaderBytes} bytes`);
    if (error.code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW') return rawReply(socket, 413, 'chunk extensions too large');
    if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return rawReply(socket, 408, 'request not received in time');
    rawReply(socket, 400, `malformed HTTP request (${error.code ?? 'parse error'})`);
  });

  return {
    http,
    limits,
    pendingReplyBytes: () => governor.pendingReplyBytes(),
    listen: (port) =>
      new Promise<AddressInfo>((resolve, reject) => {
        http.once('error', reject);
        http.listen(port, options.bindHost, () => {
          http.off('error', reject);
          resolve(http.address() as AddressInfo);
        });
      }),
    close: () =>
      new Promise<void>((resolve, reject) => {
        http.close((error) => (error ? reject(error) : resolve()));
        http.closeAllConnections();
        governor.close();
      }),
  };
}
