/**
 * @ewp/tools — the eight EWP tools, framework-free: each tool's name, description, zod input and
 * output schema (JSON Schema derived from them), argument decoding with EWP codes and JSON paths,
 * and its run function over any EvidenceStore. `@ewp/mcp`, `@ewp/ai-sdk` and `@ewp/langchain` are
 * bindings of this set; the same call gives the same result through each of them.
 * @packageDocumentation
 */
export {
  asRefusal,
  EWP_TOOL_CODES,
  type EwpToolCode,
  invalidArgument,
  isToolCode,
  type RefusalPayload,
  refusalPayload,
  TOOL_ERROR_CODES,
  type ToolErrorCode,
  ToolRefusal,
  toRefusal,
} from './refusal.js';
export {
  type EwpToolName,
  inputJsonSchema,
  inputs,
  jsonSchemaOf,
  type ObjectJsonSchema,
  outputJsonSchema,
  outputs,
  refusalSchema,
} from './schemas.js';
export { isObject, parseToolArguments, type ToolArguments } from './tool-arguments.js';
export type { EwpTool, ToolContext, ToolInput, ToolOutput } from './tool-context.js';
export {
  EWP_TOOL_NAMES,
  EWP_TOOLS,
  INGEST_TOOL_NAMES,
  type IngestCapability,
  type IngestToolName,
  isToolName,
  READ_TOOL_NAMES,
  type ReadToolName,
  type FrameworkCall,
  runTool,
  type ToolOutcome,
  type ToolsetOptions,
  toolContext,
} from './toolset.js';
export { DEFAULT_ACTION_ID, DEFAULT_ACTION_KIND, MAX_CLOCK_SKEW_SECONDS, UNRECORDED_ANONYMOUS, UNRECORDED_READ_ONLY } from './tools/may-act.js';
export {
  type AttestationSurface,
  demoteInlineView,
  type OriginTrust,
  originTrust,
  sourcesOf,
  TOOL_ATTESTATION,
  trustedOriginPath,
  trustedOriginsIn,
} from './origin-trust.js';
export { admitView, type WriteOutcome, type WriterAttestation, type WriteReport, writeViews } from './write-path.js';
export {
  decideGate,
  denyReason,
  type GateCall,
  type GateDecision,
  type GateRefusal,
  gateRefusal,
  gateRefusalSchema,
  ruleReason,
} from './gate-decision.js';
export {
  checkGateOptions,
  checkObserveOptions,
  type GateAction,
  type GateOptions,
  type GateRiskPolicy,
  type ObserveOptions,
  observeResult,
  type ResolvedGate,
  resolveGate,
  wireAction,
  wireRiskPolicy,
} from './gate-options.js';
export { CLAIM_PRINCIPAL, type ClaimScope, claimProposition, type Observation, type RecordedObservation, recordObservation } from './claim.js';
export { type ConversationTurn, recordTurn, turnAssertion } from './turn-evidence.js';
export { DEFAULT_WARRANT_TABLE_ENTRIES, WarrantTable, type WarrantTableOptions, warrantTableFor } from './warrant-table.js';
export * from './decisions/index.js';
export { recoveryReason } from './gate-decision.js';
export {
  AGENT_MEMORY_TOOL_ARGUMENTS,
  MEMORY_ARGUMENT_FIELDS,
  MEMORY_TOOL_ARGUMENTS,
  type MemoryArgumentScope,
  type MemoryRecallArguments,
  type MemoryStoreArguments,
  memoryRecallQuery,
  memoryStoreInput,
  memoryWriteInput,
  isSourceName,
  type MemoryWriter,
  writerSource,
} from './memory-tool-args.js';
export {
  type BoundedPage,
  boundItem,
  boundPage,
  type CursorPage,
  jsonBytes,
  MAX_ITEM_BYTES,
  MAX_PAGE_BYTES,
  type PageBounds,
  type PageRead,
  readPage,
  type ShortenedItem,
} from './reply-page.js';
