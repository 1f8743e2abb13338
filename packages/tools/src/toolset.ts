/**
 * The one way to call any agent-callable tool (the registry's twenty, `TOOL_SPECS` of `@ewp/spec/tools`):
 * the role is checked before the arguments are read, `null`/absent arguments are `{}`, the whole call
 * is bounded by the table of field limits, and every refusal is a {@link ToolRefusal} with an EWP code.
 * Bindings (MCP, AI SDK, LangChain, Mastra, OpenAI Agents, ADK) list tools from the registry, call
 * {@link runTool} and only frame the result.
 */
import { checkJsonBounds, type RiskPolicy } from '@ewp/core';
import { checkStoreOption } from './gate-options.js';
import type { EvidenceStore } from '@ewp/ledger';
import { isToolName, TOOL_SPECS, type ToolName, type ToolOutput } from '@ewp/spec/tools';
import type { MemoryWriter } from './memory-tool-args.js';
import { asRefusal, ToolRefusal } from './refusal.js';
import { isObject, type ToolArguments } from './tool-arguments.js';
import type { ToolContext, ToolImplementation } from './tool-context.js';
import { checkRecordTool } from './tools/check-record.js';
import { DECISION_TOOL_IMPLEMENTATIONS } from './tools/decision-tools.js';
import { evidenceRecordTool } from './tools/evidence-record.js';
import { evidenceViewGetTool } from './tools/evidence-view-get.js';
import { evidenceViewPutTool } from './tools/evidence-view-put.js';
import { listPropositionsTool } from './tools/list-propositions.js';
import { mayActTool } from './tools/may-act.js';
import { memoryContextTool } from './tools/memory-context.js';
import { MEMORY_TOOL_IMPLEMENTATIONS } from './tools/memory-tools.js';
import { warrantNowTool } from './tools/warrant-now.js';

/** How each tool of the registry runs: one implementation per name, none missing. */
const TOOL_IMPLEMENTATIONS = {
  ewp_warrant_now: warrantNowTool,
  ewp_evidence_view_put: evidenceViewPutTool,
  ewp_evidence_view_get: evidenceViewGetTool,
  ewp_check_record: checkRecordTool,
  ewp_evidence_record: evidenceRecordTool,
  ewp_may_act: mayActTool,
  ewp_memory_context: memoryContextTool,
  ewp_list_propositions: listPropositionsTool,
  ...MEMORY_TOOL_IMPLEMENTATIONS,
  ...DECISION_TOOL_IMPLEMENTATIONS,
} as const satisfies { [N in ToolName]: ToolImplementation<N> };

/** What the operator hands to a tool set to allow writes. */
export interface IngestCapability {
  /** Whether attested writes may carry trusted origins (default true). */
  allowTrustedOrigins?: boolean;
}

/** Options of {@link toolContext} (and of every binding's tool set). */
export interface ToolsetOptions {
  /** Where evidence is kept (MemoryEvidenceStore, SqliteEvidenceStore, PostgresEvidenceStore, ...). */
  store: EvidenceStore;
  /** The ingest role: `true` or a capability gives it; absent or `false` is read-only. */
  ingest?: boolean | IngestCapability | undefined;
  /** The operator's action policy for `ewp_may_act` (never taken from a caller without the ingest role). */
  riskPolicy?: RiskPolicy | undefined;
  /** The clock. Default `() => new Date()`. */
  now?: (() => Date) | undefined;
  /** Who writes memories through these tools (the authenticated principal and its observer grant); default the principal `agent`. */
  writer?: MemoryWriter | undefined;
}

/**
 * The context tools run in.
 * @throws {InvalidArgumentError} `options.store` when the store is missing (a programming error, not a tool refusal)
 */
export function toolContext(options: ToolsetOptions): ToolContext {
  checkStoreOption(options);
  const ingest = options.ingest;
  return {
    store: options.store,
    ingest: ingest === true || (typeof ingest === 'object' && ingest !== null),
    trustedOrigins: !(typeof ingest === 'object' && ingest !== null && ingest.allowTrustedOrigins === false),
    riskPolicy: options.riskPolicy,
    now: options.now ?? (() => new Date()),
    ...(options.writer === undefined ? {} : { writer: options.writer }),
  };
}

/**
 * One framework tool call as a binding sees it: the binding's gate name (the one its gate records under)
 * and the framework's id of the call, when the framework gives one.
 */
export interface FrameworkCall {
  /** The binding's gate name: the one its gate records under (`ai-sdk`, `langchain`, `adk`, ...). */
  gate: string;
  /** Absent or empty: the call is unnamed and the context's own `call` (if any) stands. */
  callId: string | undefined;
}

/** The outcome of one call: the tool's result, or the refusal the caller reads. */
export type ToolOutcome<N extends ToolName = ToolName> = { ok: true; value: ToolOutput<N> } | { ok: false; refusal: ToolRefusal };

/** The context of one call: the framework's call (gate and id) is this call's alone; a tool set's context is built once. */
function callContext(base: ToolContext, call: FrameworkCall | undefined): ToolContext {
  if (call === undefined) return base;
  if (typeof call.callId === 'string' && call.callId !== '') return { ...base, gate: call.gate, call: { gate: call.gate, callId: call.callId } };
  return { ...base, gate: call.gate };
}

/**
 * Run one call of any tool of the registry. Refusals come back as `{ ok: false }`; anything that is
 * not a refusal is a defect and is thrown, so a binding reports it as a failure rather than dress it
 * up as a code. `call` names the framework's call (see {@link ToolContext.call}): `ewp_may_act`
 * records under its gate and id and claims it, `ewp_decision_outcome` reports on that gate's
 * decisions; without an id the context's own call stands.
 */
export async function runTool<N extends ToolName>(name: N, rawArguments: unknown, context: ToolContext, call?: FrameworkCall): Promise<ToolOutcome<N>>;
export async function runTool(name: string, rawArguments: unknown, context: ToolContext, call?: FrameworkCall): Promise<ToolOutcome>;
export async function runTool(name: string, rawArguments: unknown, baseContext: ToolContext, call?: FrameworkCall): Promise<ToolOutcome> {
  if (!isToolName(name)) return { ok: false, refusal: new ToolRefusal('EWP_UNKNOWN_TOOL', `unknown tool ${JSON.stringify(name)}`) };
  const context = callContext(baseContext, call);
  // The role is decided before the payload is looked at.
  if (TOOL_SPECS[name].role === 'ingest' && !context.ingest) {
    return { ok: false, refusal: new ToolRefusal('EWP_REFUSE_INGEST_ROLE', `${name} writes to the ledger and needs the ingest role`) };
  }
  if (rawArguments !== undefined && rawArguments !== null && !isObject(rawArguments)) {
    return { ok: false, refusal: new ToolRefusal('EWP_REFUSE_INVALID_ARGUMENTS', 'arguments must be an object', { path: '$' }) };
  }
  const args: ToolArguments = (rawArguments as ToolArguments | null | undefined) ?? {};
  const tool = TOOL_IMPLEMENTATIONS[name] as ToolImplementation;
  try {
    // The table of field limits bounds the whole call first (depth, text, arrays); each reader then bounds its own field.
    checkJsonBounds(args);
    return { ok: true, value: await tool.run(args, context) };
  } catch (error) {
    const refusal = asRefusal(error);
    if (refusal === undefined) throw error;
    return { ok: false, refusal };
  }
}
