/**
 * @ewp/mcp — an MCP server (stdio and Streamable HTTP) that gives agents EWP warrant over any
 * EvidenceStore: eight tools, resources for stored views, server-side roles.
 * @packageDocumentation
 */

export { type EwpHttpServer, type EwpHttpServerOptions, MAX_HTTP_BODY_BYTES, MIN_REMOTE_TOKEN_BYTES, startEwpHttpServer } from './http-server.js';
export { createHostGuard, type HostGuard, type HostGuardOptions, hostNameOfHeader, isLoopbackHost, UnsafeBindError } from './http-guard.js';
export { holdsIngestRole, presentedToken } from './ingest-token.js';
export { EWP_TOOL_CODES, type EwpToolCode, ToolRefusal } from './refusal.js';
export { RESOURCE_NOT_FOUND, RESOURCE_TEMPLATES } from './resources.js';
export type { EwpToolName } from './schemas.js';
export type { EwpTool, ToolContext } from './tool-context.js';
export { AGENT_PROMPT_NAME } from './agent-prompt.js';
export { callEwpTool, createEwpMcpServer, EWP_TOOLS, type EwpMcpServerOptions, SERVER_INSTRUCTIONS } from './server.js';
export { type EwpStdioOptions, serveStdio } from './stdio.js';
export { LineDelimitedServerTransport, MAX_STDIO_MESSAGE_BYTES } from './stdio-transport.js';
export { MAX_CLOCK_SKEW_SECONDS } from './tools/may-act.js';
