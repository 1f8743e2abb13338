/**
 * @ewp/inspect — a local, read-only web app that shows why an agent believes what it believes:
 * the five warrant axes and their reasons, the evidence and its origins, time travel over T, the
 * lineage graph, the action gate and the audit chain, over any EvidenceStore; for a memory of the
 * evidence layer its class, confidence, salience and gate history beside the warrant, and the gate
 * decisions recorded on a proposition.
 * @packageDocumentation
 */
export {
  CONTENT_SECURITY_POLICY,
  DEFAULT_INSPECT_PORT,
  type Inspector,
  InspectorAssetsMissingError,
  type InspectorOptions,
  serveInspector,
} from './serve-inspector.js';
export { type ChainVerification, ChainVerificationError, type StoreOpener, verifyChainInWorker } from './chain-status.js';
export { INSPECT_ERROR_CODES, type InspectErrorCode } from './errors.js';
export {
  type AdapterLossReport,
  type LossCount,
  type ChainStatus,
  type DecisionPage,
  type DecisionRow,
  InspectorApi,
  type InspectorMeta,
  InspectorRequestError,
  type LossReportPanel,
  type MemoryAnswer,
  type MemoryGateAttempt,
  type MemoryLink,
  type MemoryOptions,
  type MemoryPanel,
  type MemoryReclass,
  type PropositionDetail,
  type PropositionPage,
  type PropositionRecovery,
  type PropositionRow,
  type RecoveryGate,
  toWireView,
  type WireView,
} from './inspector-api.js';
