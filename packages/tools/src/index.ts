/**
 * @ewp/tools — how every agent-callable tool runs, framework-free: {@link runTool} runs any tool of the
 * registry (`TOOL_SPECS` of `@ewp/spec/tools`, which holds each tool's name, description, schemas and
 * role) over any EvidenceStore, with one role check, one argument bound check and one refusal path;
 * argument decoding with EWP codes and JSON paths; the gate, the decision records and the write path.
 * `@ewp/mcp`, `@ewp/ai-sdk`, `@ewp/langchain`, `@ewp/mastra`, `@ewp/openai-agents` and `@ewp/adk` are
 * bindings; the same call gives the same result through each of them.
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
export { isObject, parseToolArguments, type ToolArguments } from './tool-arguments.js';
export type { ToolContext, ToolImplementation } from './tool-context.js';
export { type IngestCapability, type FrameworkCall, runTool, type ToolOutcome, type ToolsetOptions, toolContext } from './toolset.js';
export { DEFAULT_ACTION_ID, DEFAULT_ACTION_KIND, MAX_CLOCK_SKEW_SECONDS, UNRECORDED_ANONYMOUS, UNRECORDED_READ_ONLY } from './tools/may-act.js';
export { callGate } from './tools/decision-tools.js';
export { DEFAULT_WRITER_PRINCIPAL } from './tools/memory-tools.js';
export { type EventPage, pageEvents } from './tools/event-page.js';
export { type RecallPage, recallPage } from './tools/recall-page.js';
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
export { gateRefusalSchema } from './gate-refusal-schema.js';
export { type ConversationTurn, recordTurn, turnAssertion } from './turn-evidence.js';
export { DEFAULT_WARRANT_TABLE_ENTRIES, WarrantTable, type WarrantTableOptions, warrantTableFor } from './warrant-table.js';
export { latestWarrant } from './stored-warrant.js';
// The gate entry's functions (decide, record, observe an outcome, the decision records): one list, in gate.ts.
export * from './gate.js';
export { recoveryReason } from './gate-decision.js';
export {
  AGENT_MEMORY_TOOL_ARGUMENTS,
  type MemoryArgumentScope,
  type MemoryRecallArguments,
  type MemoryStoreArguments,
  memoryRecallQuery,
  memoryStoreInput,
  memoryWriteInput,
  type MemoryWriter,
  writerSource,
} from './memory-tool-args.js';
export { isSourceName } from './source-name.js';
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
