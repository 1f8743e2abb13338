/**
 * @ewp/inspect — a local, read-only web app that shows why an agent believes what it believes:
 * the five warrant axes and their reasons, the evidence and its origins, time travel over T, the
 * lineage graph, the action gate and the audit chain, over any EvidenceStore.
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
export {
  type AdapterLossReport,
  type LossCount,
  type ChainStatus,
  DEFAULT_PAGE_SIZE,
  InspectorApi,
  type InspectorMeta,
  InspectorRequestError,
  type LossReportPanel,
  MAX_PAGE_SIZE,
  type PropositionDetail,
  type PropositionPage,
  type PropositionRow,
  toWireView,
  type WireView,
} from './inspector-api.js';
