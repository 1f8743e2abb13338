/**
 * @ewp/mastra — EWP warrant for Mastra agents: `ewpMastraTools()` (the eight EWP tools of
 * @ewp/tools as Mastra tools), `gateMastraTool()` and `warrantToolHooks()` (`mayAct` as
 * `requireApproval` and a `beforeToolCall` refusal) and `WarrantMemoryProcessor` (the warrant of
 * recalled messages, and the hot/confirmed context of an `@ewp/memory` ledger).
 * @packageDocumentation
 */
export { type EwpMastraTool, type EwpMastraToolsOptions, ewpMastraTools, type IngestMastraTools, type ReadMastraTools } from './tools/ewp-mastra-tools.js';
export { gateMastraTool, type WarrantGates, warrantToolHooks } from './gate/warrant-gate.js';
export { type RecalledWarrant, WarrantMemoryProcessor, type WarrantMemoryProcessorOptions } from './memory/warrant-memory-processor.js';
export { decideGate, type GateDecision, type GateOptions, type GateRefusal, gateRefusalSchema } from '@ewp/tools';
export { type EwpToolCode, type IngestCapability, type RefusalPayload, ToolRefusal } from '@ewp/tools';
export { refusalSchema } from '@ewp/spec/tools';
