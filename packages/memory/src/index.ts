/**
 * @ewp/memory — the evidence layer for agent memories over any EvidenceStore: epistemic classes, the
 * support rule, echo detection, confidence apart from salience, and the audited promotion gate.
 * @packageDocumentation
 */
export {
  type AgentContext,
  type AgentContextOptions,
  agentContext,
  agentContextText,
  type RecalledContext,
} from './agent-context.js';
export { contextRowLabels, MEMORY_LABELS } from './memory-labels.js';
export { applyEpistemicFlags, CONFIDENCE_KEYS, EPISTEMIC_KEYS, epistemicFlagName, parseEpistemicSettings } from './config-file.js';
export { type ConfidenceWeights, DEFAULT_MEMORY_CONFIG, type MemoryConfig, type MemoryConfigInput, resolveMemoryConfig } from './config.js';
export { confidenceOf, wholePeriodsSince } from './confidence.js';
export { checkEcho, type EchoDecision } from './echo-check.js';
export { EPISTEMIC_CLASSES, type EpistemicClass, isClaimClass, isEpistemicClass, maySupport } from './epistemic-class.js';
export { type EvidenceCounts, echoRecordIds, evidenceCounts } from './evidence-counts.js';
export { MEMORY_ERROR_CODES, MemoryError, type MemoryErrorCode } from './errors.js';
export {
  type EchoCandidate,
  type GateEventBody,
  type GateReason,
  type LinkEventBody,
  MEMORY_EVENT_KINDS,
  MEMORY_EVENT_NAMESPACE,
  type ReclassEventBody,
} from './memory-events.js';
export {
  type AutoContext,
  type ContextPart,
  type ContextRow,
  type GateOutcome,
  type GateStatistics,
  hotRanking,
  isDisputedMemory,
  type LinkResult,
  MemoryLedger,
  type MemoryLedgerOptions,
  type MemoryState,
  type RecallQuery,
  type RecallRow,
  type ShownSalience,
  type StoreMemoryInput,
  type StoreMemoryResult,
} from './memory-ledger.js';
export { hashOfProposition, type MemoryFacts, type MemoryIdentity, memoryHash, propositionOf } from './memory-records.js';
export { type GateDecision, promotionDecision } from './promotion-gate.js';
export {
  emptySalience,
  InMemorySalienceStore,
  JsonlSalienceStore,
  type LedgerLocation,
  openSalienceStore,
  type SalienceRecord,
  type SalienceStore,
  saliencePathFor,
} from './salience-store.js';
export {
  cleanText,
  DEFAULT_SIMILARITY_MEASURE,
  type Embedder,
  embedderSimilarity,
  isSimilarityMeasureName,
  type LexicalSimilarityMeasure,
  normalizeForSimilarity,
  onCleanText,
  SIMILARITY_MEASURE_NAMES,
  type SimilarityMeasure,
  type SimilarityMeasureName,
  similarityMeasureNamed,
  trigramFactsSimilarity,
  trigramSimilarity,
  vectorCosine,
} from './similarity.js';
export { differentFacts, type TextFacts, textFacts } from './fact-tokens.js';
export { type WordVectorSimilarityOptions, wordVectorSimilarity } from './word-vector-similarity.js';
export { DEFAULT_VOCABULARY, loadWordVectors, type WordVectors } from './word-vectors.js';
export { type MemorySource, memoryLedgerFor, memoryLedgerOf } from './shared-ledger.js';
