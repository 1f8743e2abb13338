/**
 * @ewp/mastra — EWP warrant for Mastra agents: `ewpTools()` (the agent-callable EWP tools as Mastra
 * tools), `observe()` (a tool whose results are recorded as observations of a claim), `gate()` and
 * `warrantToolHooks()` (an action that runs only when the evidence for its claim warrants it: Mastra's
 * `requireApproval` and a `beforeToolCall` refusal) and `WarrantMemoryProcessor` (the warrant of
 * recalled messages, and the hot/confirmed context of an `@ewp/memory` ledger).
 * @packageDocumentation
 */
export { type EwpMastraTool, type EwpToolsOptions, ewpTools, type IngestMastraTools, type ReadMastraTools } from './tools/ewp-tools.js';
export { gate, type WarrantGates, warrantToolHooks } from './gate/gate.js';
export { type MastraToolInput, type MastraToolResult, observe } from './gate/observe.js';
export { type RecalledWarrant, WarrantMemoryProcessor, type WarrantMemoryProcessorOptions } from './memory/warrant-memory-processor.js';
export type { GateAction, GateOptions, GateRefusal, GateRiskPolicy, ObserveOptions, RefusalPayload } from '@ewp/tools';
