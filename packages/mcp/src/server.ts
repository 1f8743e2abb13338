/**
 * The EWP MCP server over any EvidenceStore: a binding of `@ewp/tools`. Every tool of the registry
 * (`TOOL_SPECS` of `@ewp/spec/tools`) is advertised with its name, description, JSON Schemas and the
 * annotations its role implies, and run by `runTool` (which checks the role and reads the arguments by
 * its own rules, so every malformed value gets its own `EWP_*` code); this file only frames results and
 * refusals as MCP tool results. Built on the SDK's low-level `Server` so the
 * SDK does not validate arguments first with its own errors.
 */
import { randomUUID } from 'node:crypto';
import { PROTOCOL_VERSION } from '@ewp/core';
import type { EvidenceStore } from '@ewp/ledger';
import { memoryLedgerFor, type SalienceStore } from '@ewp/memory';
import { inputJsonSchema, isToolName, outputJsonSchema, TOOL_NAMES, TOOL_SPECS, type ToolSpec } from '@ewp/spec/tools';
import { type MemoryWriter, runTool, type ToolContext, type ToolRefusal, toolContext } from '@ewp/tools';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
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
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import { AGENT_PROMPT, getAgentPrompt } from './agent-prompt.js';
import { completeResourceArgument, listResources, RESOURCE_TEMPLATES, readResource } from './resources.js';
import { stableJson, stableJsonLiteral } from './stable-json.js';
import { openToolCallSeam } from './tool-call-seam.js';

/**
 * The gate name of the decisions `ewp_may_act` records over MCP, and of those `ewp_decision_outcome`
 * reports on over MCP (each binding reports on its own gate's decisions).
 */
export const MCP_GATE = 'mcp';

/** The `instructions` given to the agent at `initialize`. */
export const SERVER_INSTRUCTIONS = [
  'EWP server: memory is evidence, not belief.',
  'Before relying on a remembered claim, look it up (ewp_list_propositions) and call ewp_memory_context; before acting on it, call ewp_may_act.',
  'Report the warrant axes as they are: when conflict is OPEN, say "conflict=OPEN" out loud and do not invent a reconciliation;',
  'DEGRADED means the view is incomplete, so missing evidence proves nothing; STALE and SUPERSEDED mean the claim may no longer hold.',
  'Writes (ewp_evidence_view_put, ewp_check_record, ewp_evidence_record) need the server-side ingest role.',
  'The memory_* tools keep memories with an epistemic class: recall makes a memory hot, never better founded; only independent observations raise confidence.',
].join(' ');

/** Options of {@link createEwpMcpServer}. */
export interface EwpMcpServerOptions {
  /** The ledger. The server never closes it. */
  store: EvidenceStore;
  /** Server-side roles of the connected caller; writes need `ingest`. */
  roles: { ingest: boolean };
  /**
   * Who the caller with the ingest role is: its principal (the source of every memory it stores) and
   * the operator's observer grant for it. Default: the principal `agent`, no observer grant.
   */
  writer?: MemoryWriter;
  /** The server clock; `ewp_may_act` decides at this time. Default: the system clock. */
  clock?: () => Date;
  /** `serverInfo.name`; default `ewp-mcp` (the reference's, so client configurations keep working). */
  name?: string;
  /**
   * Where the memory tools keep salience (recall counts, energy, importance): for a ledger opened by
   * location, `openSalienceStore` of that location (its `<ledger>.salience.jsonl`), so counts survive
   * a restart. Default: in memory. The server never closes it.
   */
  salience?: SalienceStore;
  /**
   * What a JSON-RPC request id is unique within, for the call ids of `ewp_may_act`'s records:
   * `connection` (default: one server serves one connection, whose ids the client never reuses) or
   * `request` (one server answers many clients, as the HTTP server's per-principal servers do, so
   * an id names only its own request). A transport's session id scopes it when it has one.
   */
  callScope?: 'connection' | 'request';
}

/** The `tools/list` answer, built on first use: converting the schemas costs startup time a server may never need. */
let toolList: Tool[] | undefined;
const listTools = (): Tool[] =>
  (toolList ??= TOOL_NAMES.map((name): Tool => {
    const { title, description, role } = TOOL_SPECS[name];
    return {
      name,
      title,
      description,
      inputSchema: inputJsonSchema(name),
      outputSchema: outputJsonSchema(name),
      annotations: {
        title,
        readOnlyHint: role === 'read',
        destructiveHint: false,
        // A re-put of the same view is a no-op; every other write appends.
        idempotentHint: role === 'read' || name === 'ewp_evidence_view_put',
        openWorldHint: false,
      },
    };
  }));

/**
 * A refused call: the code in the text (JSON) and, as in the reference, in a top-level `error`;
 * the JSON path of the refused argument in both when there is one.
 */
export function refusalResult(refusal: { code: ToolRefusal['code'] | string; message: string; path?: string | undefined }): CallToolResult {
  const at = refusal.path === undefined ? {} : { path: refusal.path };
  return {
    content: [{ type: 'text', text: JSON.stringify({ error: refusal.code, message: refusal.message, ...at }) }],
    isError: true,
    error: { code: refusal.code, message: refusal.message, ...at },
  };
}

function successResult(result: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: stableJson(result) }], structuredContent: result };
}

/**
 * `JSON.stringify(successResult(result))`, written without building that object: the tool text is
 * escaped into place once and the result serialised once.
 */
function successResultText(result: Record<string, unknown>): string {
  return `{"content":[{"type":"text","text":${stableJsonLiteral(result)}}],"structuredContent":${JSON.stringify(result)}}`;
}

/**
 * Run one tool call. Exposed for transports that bypass MCP framing (and for tests); an MCP
 * session goes through {@link createEwpMcpServer}.
 */
export async function callEwpTool(name: string, rawArguments: unknown, context: ToolContext): Promise<CallToolResult> {
  const outcome = await runToolsetCall(name, rawArguments, context);
  return outcome.ok ? successResult(outcome.value as Record<string, unknown>) : refusalResult(outcome.refusal);
}

/** `JSON.stringify(await callEwpTool(...))`, with the result serialised once (see {@link successResultText}). */
async function callEwpToolText(name: string, rawArguments: unknown, context: ToolContext): Promise<string> {
  const outcome = await runToolsetCall(name, rawArguments, context);
  return outcome.ok ? successResultText(outcome.value as Record<string, unknown>) : JSON.stringify(refusalResult(outcome.refusal));
}

async function runToolsetCall(name: string, rawArguments: unknown, context: ToolContext): Promise<Awaited<ReturnType<typeof runTool>>> {
  try {
    return await runTool(name, rawArguments, context);
  } catch (error) {
    // Not a refusal: a defect. Surface it as a JSON-RPC internal error rather than dress it up as a code.
    throw new McpError(ErrorCode.InternalError, `${name} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * The SDK validates with JSON Schema only the answers to `elicitation/create`, which this server
 * never sends; its default (an Ajv instance with every format) costs each server several
 * milliseconds and its compiled meta-schemas. Should an answer ever arrive, it is refused.
 */
const NO_ELICITATION: jsonSchemaValidator = {
  getValidator: () => () => ({ valid: false, data: undefined, errorMessage: 'the EWP server does not elicit input' }),
};

/**
 * Create an MCP server exposing EWP over `store`. Connect it to any SDK transport
 * (`server.connect(transport)`); one server serves one connection.
 */
export function createEwpMcpServer(options: EwpMcpServerOptions): Server {
  // The store's one memory layer is made here with this salience store; the memory tools then share it.
  if (options.salience !== undefined) memoryLedgerFor(options.store, options.clock, { salience: options.salience });
  // Every call runs under the MCP gate: ewp_decision_outcome reports on the decisions recorded over MCP.
  const context: ToolContext = {
    ...toolContext({ store: options.store, ingest: options.roles.ingest, now: options.clock, writer: options.writer }),
    gate: MCP_GATE,
  };
  const connection = randomUUID();
  // ewp_may_act records the request's own id, scoped so that no two requests share it (ids restart at each connection).
  const contextFor = (name: string, id: string | number, sessionId: string | undefined): ToolContext =>
    name !== 'ewp_may_act'
      ? context
      : { ...context, call: { gate: MCP_GATE, callId: `${options.callScope === 'request' ? randomUUID() : (sessionId ?? connection)}:${id}` } };
  const server = new Server(
    { name: options.name ?? 'ewp-mcp', title: 'EWP warrant for agent memory', version: PROTOCOL_VERSION },
    { capabilities: { tools: {}, resources: {}, prompts: {}, completions: {} }, instructions: SERVER_INSTRUCTIONS, jsonSchemaValidator: NO_ELICITATION },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: listTools() }));
  // Registered through `Server`, which checks the request and the result with the SDK's own schemas.
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) =>
    callEwpTool(request.params.name, request.params.arguments, contextFor(request.params.name, extra.requestId, extra.sessionId)),
  );
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: await listResources(options.store) }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({ resourceTemplates: RESOURCE_TEMPLATES }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => readResource(request.params.uri, context));
  server.setRequestHandler(CompleteRequestSchema, async (request) => completeResourceArgument(options.store, request.params.ref, request.params.argument));
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({ prompts: [AGENT_PROMPT] }));
  server.setRequestHandler(GetPromptRequestSchema, async (request) => getAgentPrompt(request.params.name));
  // The fast road of `tools/call` (see tool-call-seam.ts): the same handler's work, as text.
  openToolCallSeam(server, {
    store: options.store,
    deterministic: (name) => isToolName(name) && (TOOL_SPECS[name] as ToolSpec).deterministic === true,
    resultText: (name, args, id) => callEwpToolText(name, args, contextFor(name, id, undefined)),
  });
  return server;
}
