/**
 * The HTTP server hardening shared by every EWP HTTP server (the MCP server, `ewp inspect`, and the
 * REST routes beside MCP): the Host/Origin guard, request-target and body checks, timeouts and
 * limits, and the connection and memory budgets.
 * @packageDocumentation
 */
export {
  createGuardedServer,
  DEFAULT_HTTP_LIMITS,
  type GuardedHandler,
  type GuardedRequest,
  type GuardedServer,
  type GuardedServerOptions,
  type HttpLimits,
} from './guarded-server.js';
export {
  createHostGuard,
  type HostGuard,
  type HostGuardOptions,
  type HostGuardVerdict,
  hostNameOfHeader,
  isLoopbackHost,
  UnsafeBindError,
} from './host-guard.js';
export type { RequestTarget } from './request-target.js';
