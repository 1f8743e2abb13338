/**
 * The EWP MCP server over any EvidenceStore, built on the SDK's low-level `Server` so tool
 * arguments are read by our own rules (every malformed value gets its own `EWP_*` code) while
 * the protocol, capabilities and transports are the SDK's.
 */
import { EwpError, PROTOCOL_VERSION } from '@ewp/core';
import type { EvidenceStore } from '@ewp/ledger';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { AGENT_PROMPT, getAgentPrompt } from './agent-prompt.js';
import { ToolRefusal, toRefusal } from './refusal.js';
import { listResources, RESOURCE_TEMPLATES, readResource } from './resources.js';
import { inputs, jsonSchemaOf, outputs } from './schemas.js';
import { stableJson } from './stable-json.js';
import { isObject, type ToolArguments } from './tool-arguments.js';
import type { EwpTool, ToolContext } from './tool-context.js';
import { checkRecordTool } from './tools/check-record.js';
import { evidenceRecordTool } from './tools/evidence-record.js';
import { evidenceViewGetTool } from './tools/evidence-view-get.js';
import { evidenceViewPutTool } from './tools/evidence-view-put.js';
import { listPropositionsTool } from './tools/list-propositions.js';
import { mayActTool } from './tools/may-act.js';
import { memoryContextTool } from './tools/memory-context.js';
import { warrantNowTool } from './tools/warrant-now.js';

/** The eight tools, in `tools/list` order. */
export const EWP_TOOLS: readonly EwpTool[] = [
  warrantNowTool,
  evidenceViewPutTool,
  evidenceViewGetTool,
  checkRecordTool,
  evidenceRecordTool,
  mayActTool,
  memoryContextTool,
  listPropositionsTool,
] as EwpTool[];

const TOOLS_BY_NAME = new Map(EWP_TOOLS.map((t) => [t.name as string, t]));

/** The `instructions` given to the agent at `initialize`. */
export const SERVER_INSTRUCTIONS = [
  'EWP server: memory is evidence, not belief.',
  'Before relying on a remembered claim, look it up (ewp_list_propositions) and call ewp_memory_context; before acting on it, call ewp_may_act.',
  'Report the warrant axes as they are: when conflict is OPEN, say "conflict=OPEN" out loud and do not invent a reconciliation;',
  'DEGRADED means the view is incomplete, so missing evidence proves nothing; STALE and SUPERSEDED mean the claim may no longer hold.',
  'Writes (ewp_evidence_view_put, ewp_check_record, ewp_evidence_record) need the server-side ingest role.',
].join(' ');

/** Options of {@link createEwpMcpServer}. */
export interface EwpMcpServerOptions {
  /** The ledger. The server never closes it. */
  store: EvidenceStore;
  /** Server-side roles of the connected caller; writes need `ingest`. */
  roles: { ingest: boolean };
  /** The server clock; `ewp_may_act` decides at this time. Default: the system clock. */
  clock?: () => Date;
  /** `serverInfo.name`; default `ewp-mcp` (the reference's, so client configurations keep working). */
  name?: string;
}

const TOOL_LIST: Tool[] = EWP_TOOLS.map((tool) => ({
  name: tool.name,
  title: tool.title,
  description: tool.description,
  inputSchema: jsonSchemaOf(inputs[tool.name], 'input'),
  outputSchema: jsonSchemaOf(outputs[tool.name], 'output'),
  annotations: {
    title: tool.title,
    readOnlyHint: !tool.writes,
    destructiveHint: false,
    idempotentHint: !tool.writes || tool.name === 'ewp_evidence_view_put',
    openWorldHint: false,
  },
}));

/** A refused call: the code in the text (JSON) and, as in the reference, in a top-level `error`. */
export function refusalResult(refusal: ToolRefusal): CallToolResult {
  const error = { code: refusal.code, message: refusal.message };
  return {
    content: [{ type: 'text', text: JSON.stringify({ error: refusal.code, message: refusal.message }) }],
    isError: true,
    error,
  };
}

function successResult(result: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: stableJson(result) }], structuredContent: result };
}

/**
 * Run one tool call. Exposed for transports that bypass MCP framing (and for tests); an MCP
 * session goes through {@link createEwpMcpServer}.
 */
export async function callEwpTool(name: string, rawArguments: unknown, context: ToolContext): Promise<CallToolResult> {
  const tool = TOOLS_BY_NAME.get(name);
  if (tool === undefined) return refusalResult(new ToolRefusal('EWP_UNKNOWN_TOOL', `unknown tool ${JSON.stringify(name)}`));
  // The role is decided by the server before the payload is looked at.
  if (tool.writes && !context.ingest) {
    return refusalResult(new ToolRefusal('EWP_REFUSE_INGEST_ROLE', `${tool.name} writes to the ledger and needs the server-side ingest role`));
  }
  if (rawArguments !== undefined && rawArguments !== null && !isObject(rawArguments)) {
    return refusalResult(new ToolRefusal('EWP_REFUSE_INVALID_ARGUMENTS', 'arguments: must be an object'));
  }
  const args: ToolArguments = (rawArguments as ToolArguments | null | undefined) ?? {};
  try {
    return successResult((await tool.run(args, context)) as Record<string, unknown>);
  } catch (error) {
    if (error instanceof ToolRefusal || error instanceof EwpError) return refusalResult(toRefusal(error));
    // Not a refusal: a defect. Surface it as a JSON-RPC internal error rather than dress it up as a code.
    throw new McpError(ErrorCode.InternalError, `${tool.name} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * Create an MCP server exposing EWP over `store`. Connect it to any SDK transport
 * (`server.connect(transport)`); one server serves one connection.
 */
export function createEwpMcpServer(options: EwpMcpServerOptions): Server {
  const context: ToolContext = { store: options.store, ingest: options.roles.ingest, now: options.clock ?? (() => new Date()) };
  const server = new Server(
    { name: options.name ?? 'ewp-mcp', title: 'EWP warrant for agent memory', version: PROTOCOL_VERSION },
    { capabilities: { tools: {}, resources: {}, prompts: {} }, instructions: SERVER_INSTRUCTIONS },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOL_LIST }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => callEwpTool(request.params.name, request.params.arguments, context));
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: await listResources(options.store) }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({ resourceTemplates: RESOURCE_TEMPLATES }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => readResource(request.params.uri, context));
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({ prompts: [AGENT_PROMPT] }));
  server.setRequestHandler(GetPromptRequestSchema, async (request) => getAgentPrompt(request.params.name));
  return server;
}
