/**
 * The eight tools as one set, and the one way to call them: the role is checked before the
 * arguments are read, `null`/absent arguments are `{}`, and every refusal is a {@link ToolRefusal}
 * with an EWP code. Bindings (MCP, AI SDK, LangChain) call {@link runTool} and only frame the result.
 */
import { checkJsonBounds, InvalidArgumentError, type RiskPolicy } from '@ewp/core';
import type { EvidenceStore } from '@ewp/ledger';
import type { MemoryWriter } from './memory-tool-args.js';
import { asRefusal, ToolRefusal } from './refusal.js';
import type { EwpToolName } from './schemas.js';
import { isObject, type ToolArguments } from './tool-arguments.js';
import type { EwpTool, ToolContext, ToolOutput } from './tool-context.js';
import { checkRecordTool } from './tools/check-record.js';
import { evidenceRecordTool } from './tools/evidence-record.js';
import { evidenceViewGetTool } from './tools/evidence-view-get.js';
import { evidenceViewPutTool } from './tools/evidence-view-put.js';
import { listPropositionsTool } from './tools/list-propositions.js';
import { mayActTool } from './tools/may-act.js';
import { memoryContextTool } from './tools/memory-context.js';
import { warrantNowTool } from './tools/warrant-now.js';

/** The eight tools by name. */
export const EWP_TOOLS = {
  ewp_warrant_now: warrantNowTool,
  ewp_evidence_view_put: evidenceViewPutTool,
  ewp_evidence_view_get: evidenceViewGetTool,
  ewp_check_record: checkRecordTool,
  ewp_evidence_record: evidenceRecordTool,
  ewp_may_act: mayActTool,
  ewp_memory_context: memoryContextTool,
  ewp_list_propositions: listPropositionsTool,
} as const satisfies { [N in EwpToolName]: EwpTool<N> };

/** Every tool name, in the order tool lists give them. */
export const EWP_TOOL_NAMES = Object.keys(EWP_TOOLS) as EwpToolName[];

/** The tools every caller gets (they never write). */
export const READ_TOOL_NAMES = [
  'ewp_warrant_now',
  'ewp_evidence_view_get',
  'ewp_may_act',
  'ewp_memory_context',
  'ewp_list_propositions',
] as const satisfies readonly EwpToolName[];

/** The tools that write to the ledger (they need the ingest role). */
export const INGEST_TOOL_NAMES = ['ewp_evidence_view_put', 'ewp_check_record', 'ewp_evidence_record'] as const satisfies readonly EwpToolName[];

/** A read tool's name. */
export type ReadToolName = (typeof READ_TOOL_NAMES)[number];
/** A write tool's name. */
export type IngestToolName = (typeof INGEST_TOOL_NAMES)[number];

/** Whether `name` is one of the eight tools. */
export function isToolName(name: unknown): name is EwpToolName {
  return typeof name === 'string' && Object.hasOwn(EWP_TOOLS, name);
}

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
  if (options === null || typeof options !== 'object' || options.store === undefined || options.store === null) {
    throw new InvalidArgumentError('options.store', 'an EvidenceStore is required');
  }
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
export type ToolOutcome<N extends EwpToolName = EwpToolName> = { ok: true; value: ToolOutput<N> } | { ok: false; refusal: ToolRefusal };

/**
 * Run one tool call. Refusals come back as `{ ok: false }`; anything that is not a refusal is a
 * defect and is thrown, so a binding reports it as a failure rather than dress it up as a code.
 * `call` names the framework's call (see {@link ToolContext.call}): `ewp_may_act` records under its
 * gate and id and claims it; without an id the context is used as given.
 */
export async function runTool<N extends EwpToolName>(name: N, rawArguments: unknown, context: ToolContext, call?: FrameworkCall): Promise<ToolOutcome<N>>;
export async function runTool(name: string, rawArguments: unknown, context: ToolContext, call?: FrameworkCall): Promise<ToolOutcome>;
export async function runTool(name: string, rawArguments: unknown, baseContext: ToolContext, call?: FrameworkCall): Promise<ToolOutcome> {
  if (!isToolName(name)) return { ok: false, refusal: new ToolRefusal('EWP_UNKNOWN_TOOL', `unknown tool ${JSON.stringify(name)}`) };
  const tool = EWP_TOOLS[name] as EwpTool;
  // A tool set's context is built once; the framework's call (gate and id) is this call's alone.
  const context: ToolContext =
    call !== undefined && typeof call.callId === 'string' && call.callId !== ''
      ? { ...baseContext, call: { gate: call.gate, callId: call.callId } }
      : baseContext;
  // The role is decided before the payload is looked at.
  if (tool.writes && !context.ingest) {
    return { ok: false, refusal: new ToolRefusal('EWP_REFUSE_INGEST_ROLE', `${tool.name} writes to the ledger and needs the ingest role`) };
  }
  if (rawArguments !== undefined && rawArguments !== null && !isObject(rawArguments)) {
    return { ok: false, refusal: new ToolRefusal('EWP_REFUSE_INVALID_ARGUMENTS', 'arguments must be an object', { path: '$' }) };
  }
  const args: ToolArguments = (rawArguments as ToolArguments | null | undefined) ?? {};
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
