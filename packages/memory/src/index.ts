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
  type LinkEventBody,
  MEMORY_EVENT_KINDS,
  MEMORY_EVENT_NAMESPACE,
  type PromotionEventBody,
  type ReclassEventBody,
} from './memory-events.js';
export { MemoryLedger } from './memory-ledger.js';
export type { MemoryLedgerOptions } from './memory-layer.js';
export type { LinkResult, StoreMemoryInput, StoreMemoryResult } from './memory-write.js';
export { isDisputedMemory, type MemoryState } from './memory-counts.js';
export type { PromotionOutcome, PromotionStatistics } from './promotion.js';
export { type AutoContext, type ContextPart, type ContextRow, hotRanking, type RecallQuery, type RecallRow } from './memory-recall.js';
export type { ShownSalience } from './memory-checkout.js';
export { hashOfProposition, type MemoryFacts, type MemoryIdentity, memoryHash, propositionOf } from './memory-records.js';
export {
  decidePromotion,
  PROMOTION_DECISIONS,
  PROMOTION_REASONS,
  type PromotionDecision,
  type PromotionDecisionKind,
  type PromotionReason,
  type RecordedPromotionDecision,
} from './promotion-gate.js';
export { emptySalience, InMemorySalienceStore, type SalienceRecord, type SalienceStore } from './salience-store.js';
export { JsonlSalienceStore } from './salience-file.js';
export { type LedgerLocation, openSalienceStore, saliencePathFor } from './salience-location.js';
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
