/**
 * Extra JSON routes served by the MCP HTTP server beside `/mcp` (the REST bridge of the memory
 * layer): each route names its method, a path pattern and the role a caller must hold, and its
 * handler gets the parsed body and the path parameters. Requests reach a handler only after the
 * server's guard (Host/Origin, limits, budgets), the body limit, the JSON check and the role check;
 * what a handler throws is mapped to a status here, in one place.
 */
import type { EvidenceStore } from '@ewp/ledger';
import { type ErrorCodeTable, EwpError, type EwpErrorCode } from '@ewp/core';
import type { MemoryWriter, ToolErrorCode } from '@ewp/tools';

/** Who may call a route: anyone the guard lets in (`reader`), or a holder of the ingest token (`ingest`). */
export type RestRole = 'reader' | 'ingest';

/** What a route handler gets besides the body and the path parameters. */
export interface RestContext {
  /** The server's store. */
  store: EvidenceStore;
  /** The role the request holds (a route of role `reader` may also be called by an ingest holder). */
  role: RestRole;
  /** The query string's parameters. */
  query: URLSearchParams;
  /** The server's clock. */
  clock: () => Date;
  /** Who writes: the principal the request's token is bound to and its observer grant (for a reader, the principal `anonymous`, which writes nothing). */
  writer: MemoryWriter;
}

/**
 * One JSON route. `path` is literal segments and `:name` parameters (`/v1/evidence/:hash`); a
 * parameter matches one non-empty segment, percent-decoded. A `POST` body must be JSON
 * (`Content-Type: application/json`) within the server's body limit; a `GET` has no body
 * (`undefined`). The handler's result is sent as JSON with status 200.
 */
export interface RestRoute {
  method: 'GET' | 'POST';
  path: string;
  role: RestRole;
  /**
   * The fields a `POST` body may hold: a body naming any other is refused (`EWP_REFUSE_UNKNOWN_FIELD`,
   * 400, its path) before the handler runs, so a misspelt field is never silently dropped. Absent:
   * the handler reads the body as it likes.
   */
  fields?: readonly string[];
  handler: (body: unknown, params: Readonly<Record<string, string>>, ctx: RestContext) => Promise<unknown>;
}

/** The error codes only @ewp/mcp raises. */
export const MCP_ERROR_CODES = {
  EWP_REFUSE_UNKNOWN_FIELD: 'a REST request body names a field the route does not read',
} as const satisfies ErrorCodeTable;

/** A request body field a route does not read. */
export class UnknownFieldError extends EwpError<keyof typeof MCP_ERROR_CODES> {
  static override readonly marker: symbol = Symbol.for('ewp.error.UnknownFieldError');
  constructor(path: string, known: readonly string[]) {
    super('EWP_REFUSE_UNKNOWN_FIELD', `is not a field of this request (known: ${known.join(', ')})`, { path });
    this.name = 'UnknownFieldError';
  }
}

/**
 * Refuse a body that is not an object or names a field outside `fields`, by the field's path.
 * @throws UnknownFieldError; EwpError `EWP_REFUSE_INVALID_ARGUMENTS` at `$` for a body that is not an object
 */
export function checkBodyFields(body: unknown, fields: readonly string[]): void {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new EwpError('EWP_REFUSE_INVALID_ARGUMENTS', 'the body must be a JSON object', { path: '$' });
  }
  for (const key of Object.keys(body)) if (!fields.includes(key)) throw new UnknownFieldError(`$.${key}`, fields);
}

/** A compiled route: its pattern split into segments once. */
export interface CompiledRestRoute {
  route: RestRoute;
  segments: readonly ({ literal: string } | { param: string })[];
}

/** A route that cannot be served: a bad pattern, or two routes on one method and path. */
export class RestRouteError extends EwpError {
  static override readonly marker: symbol = Symbol.for('ewp.error.RestRouteError');
  constructor(message: string, path: string) {
    super('EWP_REFUSE_INVALID_ARGUMENTS', message, { path });
    this.name = 'RestRouteError';
  }
}

/** Paths the MCP server answers itself; a route may not take them. */
const RESERVED_PATHS = new Set(['/', '/mcp', '/mcp/', '/health']);

/**
 * Check and compile the routes given to the server.
 * @throws RestRouteError when a pattern is not `/segment/:param/...`, reuses a parameter name,
 *   takes a path the server answers itself, or repeats another route's method and pattern.
 */
export function compileRestRoutes(routes: readonly RestRoute[]): CompiledRestRoute[] {
  const seen = new Set<string>();
  return routes.map((route, i) => {
    const where = `routes[${i}]`;
    if (route.method !== 'GET' && route.method !== 'POST') throw new RestRouteError(`${where}.method must be GET or POST`, `${where}.method`);
    if (route.role !== 'reader' && route.role !== 'ingest') throw new RestRouteError(`${where}.role must be 'reader' or 'ingest'`, `${where}.role`);
    if (typeof route.handler !== 'function') throw new RestRouteError(`${where}.handler must be a function`, `${where}.handler`);
    if (route.fields !== undefined && (!Array.isArray(route.fields) || route.fields.some((f) => typeof f !== 'string'))) {
      throw new RestRouteError(`${where}.fields must be an array of field names`, `${where}.fields`);
    }
    if (!/^(?:\/(?::[A-Za-z_][A-Za-z0-9_]*|[A-Za-z0-9._~-]+))+$/.test(route.path) || RESERVED_PATHS.has(route.path)) {
      throw new RestRouteError(
        `${where}.path ${JSON.stringify(route.path)} is not a route pattern (/segment/:param/...) the server may give away`,
        `${where}.path`,
      );
    }
    const names = new Set<string>();
    const segments = route.path
      .slice(1)
      .split('/')
      .map((part) => {
        if (!part.startsWith(':')) return { literal: part };
        const param = part.slice(1);
        if (names.has(param)) throw new RestRouteError(`${where}.path names :${param} twice`, `${where}.path`);
        names.add(param);
        return { param };
      });
    const key = `${route.method} ${segments.map((s) => ('literal' in s ? s.literal : ':')).join('/')}`;
    if (seen.has(key)) throw new RestRouteError(`${where} repeats the method and path of an earlier route`, `${where}.path`);
    seen.add(key);
    return { route, segments };
  });
}

/** What a path matches: a route with its parameters, a path served only with other methods, or nothing. */
export type RestMatch =
  | { kind: 'route'; route: RestRoute; params: Record<string, string> }
  | { kind: 'method'; allow: string }
  | { kind: 'none' }
  | { kind: 'bad-encoding' };

/** Match a request path (without its query) against the compiled routes. */
export function matchRestRoute(routes: readonly CompiledRestRoute[], method: string, path: string): RestMatch {
  const parts = path.slice(1).split('/');
  const methods: string[] = [];
  for (const { route, segments } of routes) {
    if (segments.length !== parts.length) continue;
    const params: Record<string, string> = {};
    let matched = true;
    for (let i = 0; i < segments.length && matched; i++) {
      const segment = segments[i] as { literal: string } | { param: string };
      const part = parts[i] as string;
      if ('literal' in segment) matched = segment.literal === part;
      else if (part === '') matched = false;
      else {
        try {
          params[segment.param] = decodeURIComponent(part);
        } catch {
          return { kind: 'bad-encoding' };
        }
      }
    }
    if (!matched) continue;
    if (route.method === method) return { kind: 'route', route, params };
    methods.push(route.method);
  }
  return methods.length > 0 ? { kind: 'method', allow: methods.join(', ') } : { kind: 'none' };
}

/** Status of the error a handler threw, by its stable code. */
const STATUS_OF_CODE: Partial<Record<string, number>> = {
  EWP_REFUSE_MISSING_VIEW: 404,
  EWP_REFUSE_IMMUTABLE_RECORD: 409,
  EWP_REFUSE_INGEST_ROLE: 403,
  EWP_REFUSE_LEDGER_UNAVAILABLE: 503,
  // The principal holds the ingest role, but the operator has not allowed it this source or class.
  EWP_REFUSE_SOURCE_NOT_ALLOWED: 403,
  EWP_REFUSE_CLASS_NOT_ALLOWED: 403,
} satisfies Partial<Record<EwpErrorCode | ToolErrorCode, number>>;

/** The JSON body of every REST error reply. */
export interface RestErrorBody {
  error: { code: string; message: string; path?: string };
}

/**
 * The reply to what a handler threw: an {@link EwpError} is a refusal of the request (400, or the
 * status its code implies: 404 nothing stored, 409 immutable, 403 role, source or class not allowed,
 * 503 ledger unavailable)
 * with its code, message and field path; anything else is a 500 that names no internals.
 */
export function restErrorReply(error: unknown): { status: number; body: RestErrorBody } {
  if (EwpError.isInstance(error)) {
    const body: RestErrorBody = { error: { code: error.code, message: error.message } };
    if (error.path !== undefined) body.error.path = error.path;
    return { status: STATUS_OF_CODE[error.code] ?? 400, body };
  }
  return { status: 500, body: { error: { code: 'INTERNAL', message: 'internal error' } } };
}
