/**
 * @ewp/mcp — an MCP server (stdio and Streamable HTTP) that gives agents EWP warrant over any
 * EvidenceStore: every tool of the registry (`@ewp/spec/tools`, run by `@ewp/tools`), resources for
 * stored views, server-side roles.
 * @packageDocumentation
 */

export { type EwpHttpServer, type EwpHttpServerOptions, MAX_HTTP_BODY_BYTES, startEwpHttpServer } from './http-server.js';
export { createHostGuard, type HostGuard, type HostGuardOptions, hostNameOfHeader, isLoopbackHost, UnsafeBindError } from '@ewp/http-guard';
export {
  assertIngestToken,
  assertPrincipalTokens,
  holdsIngestRole,
  MIN_INGEST_TOKEN_BYTES,
  OPERATOR_PRINCIPAL,
  type PrincipalToken,
  presentedToken,
  principalOf,
  readIngestTokenFile,
  WeakIngestTokenError,
} from './ingest-token.js';
export { DEFAULT_STDIO_PRINCIPAL, type ObserverGrant, type ObserverGrants, parseObserverGrants, writerOf } from './principals.js';
export { RESOURCE_NOT_FOUND, RESOURCE_TEMPLATES } from './resources.js';
export { AGENT_PROMPT_NAME } from './agent-prompt.js';
export { callEwpTool, createEwpMcpServer, type EwpMcpServerOptions, MCP_GATE, refusalResult, SERVER_INSTRUCTIONS } from './server.js';
export { type EwpStdioOptions, serveStdio } from './stdio.js';
export { LineDelimitedServerTransport, MAX_STDIO_MESSAGE_BYTES } from './stdio-transport.js';
// The toolset's names, re-exported so existing imports from `@ewp/mcp` keep working.
export { EWP_TOOL_CODES, type EwpToolCode, MAX_CLOCK_SKEW_SECONDS, type ToolContext, ToolRefusal } from '@ewp/tools';
export {
  checkBodyFields,
  MCP_ERROR_CODES,
  type RestContext,
  type RestErrorBody,
  type RestRole,
  type RestRoute,
  RestRouteError,
  restErrorReply,
  UnknownFieldError,
} from './rest-routes.js';
export { MEMORY_REST_ROUTES } from './rest-memory.js';
