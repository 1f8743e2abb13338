/**
 * MCP Streamable HTTP on `node:http` (path `/mcp`), stateless: one SDK server for callers without a
 * token and one per principal, for the life of the process, each on one {@link HttpExchangeTransport};
 * a POST's role and principal come from its token, decided from the headers before the body is read. Replies are JSON (no SSE stream is
 * needed: no tool streams progress); connections are kept alive.
 * Plain JSON-RPC clients of the reference (`POST /mcp` with JSON and no `Accept`) are served too.
 */
import type { Server as HttpServer, IncomingMessage, ServerResponse } from 'node:http';
import { PROTOCOL_VERSION } from '@ewp/core';
import type { EvidenceStore } from '@ewp/ledger';
import { memoryLedgerFor, type SalienceStore } from '@ewp/memory';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { type JSONRPCMessage, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { createGuardedServer, DEFAULT_HTTP_LIMITS, type GuardedRequest, type HttpLimits } from '@ewp/http-guard';
import { assertIngestToken, assertPrincipalTokens, OPERATOR_PRINCIPAL, type PrincipalToken, presentedToken, principalOf } from './ingest-token.js';
import { errorReply, guardMessage, INVALID_REQUEST, PARSE_ERROR, parseJsonBytes } from './jsonrpc-guard.js';
import { HttpExchangeTransport } from './http-exchange.js';
import { type ObserverGrants, writerOf } from './principals.js';
import { checkBodyFields, compileRestRoutes, matchRestRoute, type RestRoute, restErrorReply } from './rest-routes.js';
import { createEwpMcpServer } from './server.js';
import { fastToolCall } from './tool-call-seam.js';

/** Largest accepted request body by default (1 MiB). */
export const MAX_HTTP_BODY_BYTES = DEFAULT_HTTP_LIMITS.maxBodyBytes;
const MCP_PATHS = new Set(['/mcp', '/mcp/', '/']);
/** The writer of a request without a token: it holds no ingest role, so it writes nothing under this name. */
const ANONYMOUS_PRINCIPAL = 'anonymous';

export interface EwpHttpServerOptions {
  store: EvidenceStore;
  /** Default `127.0.0.1`: loopback only unless told otherwise. */
  host?: string;
  /** Default 8765; 0 picks a free port. */
  port?: number;
  /**
   * Requests presenting this token hold the ingest role; without a token the server is read-only.
   * At least {@link MIN_INGEST_TOKEN_BYTES} bytes.
   */
  ingestToken?: string;
  /**
   * More tokens, each bound to its principal: a request presenting one holds the ingest role and
   * writes as that principal (the source of every memory it stores). `ingestToken` is the principal
   * `operator`'s. Each token at least {@link MIN_INGEST_TOKEN_BYTES} bytes; no principal or token twice.
   */
  principals?: readonly PrincipalToken[];
  /**
   * The operator's observer grants by principal: which principals may write `observation` and
   * `evidence`, and under which sub-source names (see `MemoryWriter` of @ewp/tools). Default none:
   * every principal's memories are its own inferences and hypotheses.
   */
  observers?: ObserverGrants;
  /** Largest request body (default 1 MiB); the same as `limits.maxBodyBytes`. */
  maxBodyBytes?: number;
  clock?: () => Date;
  /** Host names clients may use besides loopback; required when `host` is not loopback. */
  allowedHosts?: readonly string[];
  /**
   * Most connections open at once (default 128): past it the longest-idle connection is closed, else
   * the new one gets 503 with `Retry-After`. The same as `limits.maxConnections`.
   */
  maxConnections?: number;
  /** The HTTP limits and budgets (timeouts, sizes, reply budgets); see `@ewp/http-guard`. */
  limits?: Partial<HttpLimits>;
  /**
   * Extra JSON routes served beside `/mcp` (see {@link RestRoute}), behind the same Host/Origin
   * guard, limits, body limit and token: a route of role `ingest` answers 401 without a token and
   * 403 with a wrong one.
   */
  routes?: readonly RestRoute[];
  /**
   * Where the memory tools and routes keep salience (recall counts, energy, importance): for a ledger opened by
   * location, `openSalienceStore` of that location (its `<ledger>.salience.jsonl`), so counts survive
   * a restart. Default: in memory. The server never closes it.
   */
  salience?: SalienceStore;
}

export interface EwpHttpServer {
  /** `http://host:port/mcp` */
  url: string;
  host: string;
  port: number;
  http: HttpServer;
  /** The HTTP limits in force. */
  limits: Readonly<HttpLimits>;
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

function isJsonMediaType(value: string | undefined): boolean {
  if (value === undefined) return false;
  const type = value.split(';')[0]?.trim().toLowerCase();
  return type === 'application/json' || (type !== undefined && /^application\/[\w.+-]+\+json$/.test(type));
}

/**
 * Start the HTTP server. Resolves once it listens.
 * @throws WeakIngestTokenError when `ingestToken` is shorter than {@link MIN_INGEST_TOKEN_BYTES};
 *   UnsafeBindError when `host` is beyond loopback and no `allowedHosts` are given;
 *   RestRouteError when a route cannot be served
 */
export async function startEwpHttpServer(options: EwpHttpServerOptions): Promise<EwpHttpServer> {
  const host = options.host ?? '127.0.0.1';
  if (options.ingestToken !== undefined) assertIngestToken(options.ingestToken);
  const tokens: PrincipalToken[] = [
    ...(options.ingestToken === undefined ? [] : [{ principal: OPERATOR_PRINCIPAL, token: options.ingestToken }]),
    ...(options.principals ?? []),
  ];
  assertPrincipalTokens(tokens);
  const routes = compileRestRoutes(options.routes ?? []);
  const clock = options.clock ?? (() => new Date());
  // The store's one memory layer, made now with this salience store, is the one the tools and the REST routes share.
  if (options.salience !== undefined) memoryLedgerFor(options.store, clock, { salience: options.salience });
  // One server per principal (and one for callers without a token), made on first use and connected
  // once: a request costs no server, transport or listener.
  const roles = new Map<string | undefined, Promise<{ server: Server; transport: HttpExchangeTransport }>>();
  const roleServer = (principal: string | undefined) => {
    let made = roles.get(principal);
    if (made === undefined) {
      made = (async () => {
        const server = createEwpMcpServer({
          store: options.store,
          roles: { ingest: principal !== undefined },
          // Every client of the principal shares this server: a request id is unique to its own request only.
          callScope: 'request',
          ...(principal === undefined ? {} : { writer: writerOf(principal, options.observers) }),
          ...(options.clock ? { clock: options.clock } : {}),
        });
        const transport = new HttpExchangeTransport();
        await server.connect(transport);
        return { server, transport };
      })();
      roles.set(principal, made);
    }
    return made;
  };

  /** The body of a JSON POST, or `undefined` once a refusal was sent (`bad` shapes the refusal). */
  async function jsonBody(
    req: IncomingMessage,
    res: ServerResponse,
    request: GuardedRequest,
    bad: (message: string) => unknown,
    parseError: (reason: string) => unknown,
  ) {
    if (!isJsonMediaType(req.headers['content-type'])) {
      sendJson(res, 415, bad('unsupported media type: Content-Type must be application/json'));
      return undefined;
    }
    const body = await request.readBody();
    if (body === undefined) return undefined;
    if (body.length === 0) {
      sendJson(res, 400, bad('invalid request: empty body'));
      return undefined;
    }
    const parsed = parseJsonBytes(body);
    if (!parsed.ok) {
      sendJson(res, 400, parseError(parsed.reason));
      return undefined;
    }
    return { value: parsed.value };
  }

  async function handleMcpPost(req: IncomingMessage, res: ServerResponse, request: GuardedRequest): Promise<void> {
    // The role (and the principal) comes from the headers alone, before a byte of the body is read.
    const principal = principalOf(req.headers, tokens);
    const body = await jsonBody(
      req,
      res,
      request,
      (message) => errorReply(null, INVALID_REQUEST, message),
      (reason) => errorReply(null, PARSE_ERROR, reason),
    );
    if (body === undefined) return;
    const guarded = guardMessage(body.value);
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
    const { server, transport } = await roleServer(principal);
    // `tools/call` may take the fast road of the tool-call seam; it answers as the Protocol would.
    const fast = isRequest ? fastToolCall(server, message) : undefined;
    if (fast !== undefined) return sendJsonText(res, 200, await fast);
    if (!isRequest) {
      transport.deliver(message);
      res.writeHead(202).end();
      return;
    }
    sendJson(res, 200, await transport.exchange(message as JSONRPCMessage & { id: string | number }));
  }

  async function handleRoute(
    req: IncomingMessage,
    res: ServerResponse,
    request: GuardedRequest,
    route: RestRoute,
    params: Record<string, string>,
  ): Promise<void> {
    const principal = principalOf(req.headers, tokens);
    const ingest = principal !== undefined;
    if (route.role === 'ingest' && !ingest) {
      const presented = presentedToken(req.headers) !== undefined;
      const message = presented ? 'the token presented does not hold the ingest role' : 'this route needs the ingest token';
      return sendJson(res, presented ? 403 : 401, { error: { code: 'EWP_REFUSE_INGEST_ROLE', message } }, presented ? {} : { 'www-authenticate': 'Bearer' });
    }
    let body: unknown;
    if (route.method === 'POST') {
      const parsed = await jsonBody(req, res, request, restBadRequest, (reason) => ({ error: { code: 'JSON_SYNTAX', message: reason } }));
      if (parsed === undefined) return;
      body = parsed.value;
    }
    let result: unknown;
    try {
      if (route.fields !== undefined && route.method === 'POST') checkBodyFields(body, route.fields);
      const writer = principal === undefined ? { principal: ANONYMOUS_PRINCIPAL } : writerOf(principal, options.observers);
      result = await route.handler(body, params, { store: options.store, role: ingest ? 'ingest' : 'reader', query: request.target.query, clock, writer });
    } catch (error) {
      const reply = restErrorReply(error);
      return sendJson(res, reply.status, reply.body);
    }
    return sendJson(res, 200, result);
  }

  async function handle(req: IncomingMessage, res: ServerResponse, request: GuardedRequest): Promise<void> {
    const path = request.target.rawPath;
    if (routes.length > 0 && !MCP_PATHS.has(path) && path !== '/health') {
      const match = matchRestRoute(routes, req.method ?? '', path);
      if (match.kind === 'route') return handleRoute(req, res, request, match.route, match.params);
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
      return handleMcpPost(req, res, request);
    }
    return sendJson(res, 405, { error: 'method not allowed' }, { allow: 'GET, POST' });
  }

  const limits: Partial<HttpLimits> = {
    ...(options.maxBodyBytes === undefined ? {} : { maxBodyBytes: options.maxBodyBytes }),
    ...(options.maxConnections === undefined ? {} : { maxConnections: options.maxConnections }),
    ...options.limits,
  };
  // The guard's own refusals (limits, Host/Origin, malformed requests) are JSON-RPC error replies, as on /mcp.
  const guarded = await createGuardedServer(
    {
      bindHost: host,
      ...(options.allowedHosts ? { allowedHosts: options.allowedHosts } : {}),
      limits,
      errorBody: (_status, message) => errorReply(null, INVALID_REQUEST, message),
    },
    handle,
  );
  const address = await guarded.listen(options.port ?? 8765);
  const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${urlHost}:${address.port}/mcp`,
    host: address.address,
    port: address.port,
    http: guarded.http,
    limits: guarded.limits,
    close: async () => {
      await guarded.close();
      for (const made of roles.values()) await (await made).server.close();
    },
  };
}
