/**
 * MCP Streamable HTTP on `node:http` (path `/mcp`), stateless: one SDK server per role (read, ingest)
 * for the life of the process, each on one {@link HttpExchangeTransport}; a POST's role comes from
 * its token, decided from the headers before the body is read. Replies are JSON (no SSE stream is
 * needed: no tool streams progress); connections are kept alive.
 * Plain JSON-RPC clients of the reference (`POST /mcp` with JSON and no `Accept`) are served too.
 */
import type { Server as HttpServer, IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PROTOCOL_VERSION } from '@ewp/core';
import type { EvidenceStore } from '@ewp/ledger';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { type JSONRPCMessage, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { createHostGuard, isLoopbackHost, UnsafeBindError } from '@ewp/http-guard';
import { holdsIngestRole, presentedToken } from './ingest-token.js';
import { errorReply, guardMessage, INVALID_REQUEST, PARSE_ERROR, parseJsonBytes } from './jsonrpc-guard.js';
import { HttpExchangeTransport } from './http-exchange.js';
import { compileRestRoutes, matchRestRoute, type RestRoute, restErrorReply } from './rest-routes.js';
import { createEwpMcpServer, directCallsOf } from './server.js';

/** Largest accepted request body (1 MiB). */
export const MAX_HTTP_BODY_BYTES = 1024 * 1024;
/** Shortest ingest token accepted when the server is reachable beyond loopback (UTF-8 bytes). */
export const MIN_REMOTE_TOKEN_BYTES = 32;
const MCP_PATHS = new Set(['/mcp', '/mcp/', '/']);

export interface EwpHttpServerOptions {
  store: EvidenceStore;
  /** Default `127.0.0.1`: loopback only unless told otherwise. */
  host?: string;
  /** Default 8765; 0 picks a free port. */
  port?: number;
  /** Requests presenting this token hold the ingest role; without a token the server is read-only. */
  ingestToken?: string;
  maxBodyBytes?: number;
  clock?: () => Date;
  /** Host names clients may use besides loopback; required when `host` is not loopback. */
  allowedHosts?: readonly string[];
  /**
   * Most connections open at once (default 128): beyond it new connections are closed at once,
   * so one client holding sockets cannot exhaust the process's file descriptors.
   */
  maxConnections?: number;
  /**
   * Extra JSON routes served beside `/mcp` (see {@link RestRoute}), behind the same Host/Origin
   * guard, limits, body limit and token: a route of role `ingest` answers 401 without a token and
   * 403 with a wrong one.
   */
  routes?: readonly RestRoute[];
}

export interface EwpHttpServer {
  /** `http://host:port/mcp` */
  url: string;
  host: string;
  port: number;
  http: HttpServer;
  close(): Promise<void>;
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  sendJsonText(res, status, JSON.stringify(body), headers);
}

function sendJsonText(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** A REST route's refusal of a malformed request, in the body shape of {@link restErrorReply}. */
function restBadRequest(message: string): { error: { code: string; message: string } } {
  return { error: { code: 'EWP_REFUSE_INVALID_ARGUMENTS', message } };
}

/** Refuse a body before (or while) reading it, and close the connection so the rest is never read. */
function tooLarge(
  req: IncomingMessage,
  res: ServerResponse,
  limit: number,
  body: unknown = errorReply(null, INVALID_REQUEST, `request body larger than ${limit} bytes`),
): void {
  sendJson(res, 413, body, { connection: 'close' });
  res.on('finish', () => req.destroy());
}

function isJsonMediaType(value: string | undefined): boolean {
  if (value === undefined) return false;
  const type = value.split(';')[0]?.trim().toLowerCase();
  return type === 'application/json' || (type !== undefined && /^application\/[\w.+-]+\+json$/.test(type));
}

async function readBody(req: IncomingMessage, limit: number): Promise<Buffer | 'too-large'> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) return 'too-large';
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** Start the HTTP server. Resolves once it listens. */
export async function startEwpHttpServer(options: EwpHttpServerOptions): Promise<EwpHttpServer> {
  const host = options.host ?? '127.0.0.1';
  const limit = options.maxBodyBytes ?? MAX_HTTP_BODY_BYTES;
  if (!isLoopbackHost(host) && options.ingestToken !== undefined && Buffer.byteLength(options.ingestToken, 'utf8') < MIN_REMOTE_TOKEN_BYTES) {
    throw new UnsafeBindError(`an ingest token for a server bound beyond loopback must be at least ${MIN_REMOTE_TOKEN_BYTES} bytes`);
  }
  const guard = createHostGuard({ bindHost: host, ...(options.allowedHosts ? { allowedHosts: options.allowedHosts } : {}) });
  // One server per role, made on first use and connected once: a request costs no server, transport or listener.
  const roles = new Map<boolean, Promise<{ server: Server; transport: HttpExchangeTransport }>>();
  const roleServer = (ingest: boolean) => {
    let made = roles.get(ingest);
    if (made === undefined) {
      made = (async () => {
        const server = createEwpMcpServer({ store: options.store, roles: { ingest }, ...(options.clock ? { clock: options.clock } : {}) });
        const transport = new HttpExchangeTransport();
        await server.connect(transport);
        return { server, transport };
      })();
      roles.set(ingest, made);
    }
    return made;
  };

  async function handleMcpPost(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // The role comes from the headers alone, before a byte of the body is read.
    const ingest = holdsIngestRole(req.headers, options.ingestToken);
    const declared = req.headers['content-length'];
    if (declared !== undefined) {
      if (!/^\d+$/.test(declared.trim())) return sendJson(res, 400, errorReply(null, INVALID_REQUEST, 'bad Content-Length'));
      if (Number(declared) > limit) return tooLarge(req, res, limit);
    }
    if (!isJsonMediaType(req.headers['content-type'])) {
      return sendJson(res, 415, errorReply(null, INVALID_REQUEST, 'unsupported media type: Content-Type must be application/json'));
    }
    const body = await readBody(req, limit);
    if (body === 'too-large') return tooLarge(req, res, limit);
    if (body.length === 0) return sendJson(res, 400, errorReply(null, INVALID_REQUEST, 'invalid request: empty body'));
    const parsed = parseJsonBytes(body);
    if (!parsed.ok) return sendJson(res, 400, errorReply(null, PARSE_ERROR, parsed.reason));
    const guarded = guardMessage(parsed.value);
    if (!guarded.ok) {
      if (guarded.reply === undefined) {
        res.writeHead(202).end();
        return;
      }
      return sendJson(res, 400, guarded.reply);
    }
    const message = guarded.message as JSONRPCMessage & { id?: unknown; method?: unknown };
    const isRequest = typeof message.method === 'string' && Object.hasOwn(message, 'id');
    const version = req.headers['mcp-protocol-version'];
    // As the SDK's Streamable HTTP transport: a version the client names must be one the SDK speaks.
    if (version !== undefined && message.method !== 'initialize' && !SUPPORTED_PROTOCOL_VERSIONS.includes(String(version))) {
      return sendJson(res, 400, {
        jsonrpc: '2.0',
        error: {
          code: -32000,
          message: `Bad Request: Unsupported protocol version: ${String(version)} (supported versions: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`,
        },
        id: null,
      });
    }
    const { server, transport } = await roleServer(ingest);
    const direct = isRequest ? directCallsOf(server)?.(message) : undefined;
    if (direct !== undefined) return sendJsonText(res, 200, await direct);
    if (!isRequest) {
      transport.deliver(message);
      res.writeHead(202).end();
      return;
    }
    sendJson(res, 200, await transport.exchange(message as JSONRPCMessage & { id: string | number }));
  }

  const routes = compileRestRoutes(options.routes ?? []);
  const clock = options.clock ?? (() => new Date());

  async function handleRoute(req: IncomingMessage, res: ServerResponse, route: RestRoute, params: Record<string, string>, query: string): Promise<void> {
    const ingest = holdsIngestRole(req.headers, options.ingestToken);
    if (route.role === 'ingest' && !ingest) {
      const presented = presentedToken(req.headers) !== undefined;
      const message = presented ? 'the token presented does not hold the ingest role' : 'this route needs the ingest token';
      return sendJson(res, presented ? 403 : 401, { error: { code: 'EWP_REFUSE_INGEST_ROLE', message } }, presented ? {} : { 'www-authenticate': 'Bearer' });
    }
    let body: unknown;
    if (route.method === 'POST') {
      const declared = req.headers['content-length'];
      if (declared !== undefined) {
        if (!/^\d+$/.test(declared.trim())) return sendJson(res, 400, restBadRequest('bad Content-Length'));
        if (Number(declared) > limit) return tooLarge(req, res, limit, restBadRequest(`request body larger than ${limit} bytes`));
      }
      if (!isJsonMediaType(req.headers['content-type'])) {
        return sendJson(res, 415, restBadRequest('unsupported media type: Content-Type must be application/json'));
      }
      const bytes = await readBody(req, limit);
      if (bytes === 'too-large') return tooLarge(req, res, limit, restBadRequest(`request body larger than ${limit} bytes`));
      if (bytes.length === 0) return sendJson(res, 400, restBadRequest('empty body: a JSON value is required'));
      const parsed = parseJsonBytes(bytes);
      if (!parsed.ok) return sendJson(res, 400, { error: { code: 'JSON_SYNTAX', message: parsed.reason } });
      body = parsed.value;
    }
    let result: unknown;
    try {
      result = await route.handler(body, params, { store: options.store, role: ingest ? 'ingest' : 'reader', query: new URLSearchParams(query), clock });
    } catch (error) {
      const reply = restErrorReply(error);
      return sendJson(res, reply.status, reply.body);
    }
    return sendJson(res, 200, result);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const target = req.url ?? '/';
    const queryAt = target.indexOf('?');
    const path = queryAt < 0 ? target : target.slice(0, queryAt);
    // DNS-rebinding defence: only loopback and the allowed names, whatever the bind address.
    const verdict = guard(req.headers);
    if (!verdict.ok) return sendJson(res, 403, { error: verdict.reason }, { connection: 'close' });
    if (routes.length > 0 && !MCP_PATHS.has(path) && path !== '/health') {
      const match = matchRestRoute(routes, req.method ?? '', path);
      if (match.kind === 'route') return handleRoute(req, res, match.route, match.params, queryAt < 0 ? '' : target.slice(queryAt + 1));
      if (match.kind === 'bad-encoding') return sendJson(res, 400, restBadRequest('malformed percent-encoding in the path'));
      if (match.kind === 'method') return sendJson(res, 405, restBadRequest(`method not allowed: ${match.allow}`), { allow: match.allow });
    }
    if (req.method === 'GET') {
      if (path === '/health' || path === '/') return sendJson(res, 200, { server: 'ewp-mcp', protocol: PROTOCOL_VERSION });
      if (MCP_PATHS.has(path)) {
        return sendJson(res, 405, errorReply(null, INVALID_REQUEST, 'this server has no SSE stream: POST JSON-RPC messages to /mcp'), {
          allow: 'POST',
        });
      }
      return sendJson(res, 404, { error: 'not found' });
    }
    if (req.method === 'POST') {
      if (!MCP_PATHS.has(path)) return sendJson(res, 404, { error: 'not found' });
      return handleMcpPost(req, res);
    }
    return sendJson(res, 405, { error: 'method not allowed' }, { allow: 'GET, POST' });
  }

  // Loaded here, not with the package: a stdio server never needs it (a few ms of every startup).
  const { createServer } = await import('node:http');
  const http = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) {
        sendJson(res, 500, errorReply(null, -32603, `internal error: ${error instanceof Error ? error.message : String(error)}`));
      } else {
        res.destroy();
      }
    });
  });
  // A malformed or timed-out connection is destroyed, not ended: `end()` waits for the peer to
  // read, so a client that never reads would keep the descriptor.
  http.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (socket.writable && error.code !== 'ERR_HTTP_REQUEST_TIMEOUT' && error.code !== 'ECONNRESET') {
      socket.write('HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
    }
    socket.destroy();
  });
  http.on('timeout', (socket) => socket.destroy());
  http.maxConnections = options.maxConnections ?? 128;
  // Slow senders get a bounded time for headers and body; idle keep-alive sockets are reaped.
  http.headersTimeout = 10_000;
  http.requestTimeout = 30_000;
  http.keepAliveTimeout = 5_000;
  http.setTimeout(60_000);
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 8765, host, () => {
      http.off('error', reject);
      resolve();
    });
  });
  const address = http.address() as AddressInfo;
  const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${urlHost}:${address.port}/mcp`,
    host: address.address,
    port: address.port,
    http,
    close: async () => {
      await new Promise<void>((resolve, reject) => {
        http.close((error) => (error ? reject(error) : resolve()));
        http.closeAllConnections();
      });
      for (const made of roles.values()) await (await made).server.close();
    },
  };
}
