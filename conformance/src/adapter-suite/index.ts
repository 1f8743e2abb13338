/**
 * The shared adapter conformance suite: every memory-store adapter writes the pack through its
 * store, reads it back, and keeps an expected-loss list that only shrinks.
 * @packageDocumentation
 */

export { diffViews, type FieldDifference } from './diff-views.js';
export {
  type ExpectedLoss,
  type ExpectedLossFile,
  isObservation,
  LOSS_CLASSES,
  type LossClass,
  lossMatches,
  type ObservedLoss,
  parseExpectedLossFile,
} from './loss.js';
export { type LossReportJson, lossReportJson, renderLossReportMarkdown } from './loss-report.js';
export type { AdapterCapabilities, AdapterSubject, MemoryAdapter, NativeRecordPlanter } from './memory-adapter.js';
export { type AdapterFixture, adapterFixtures } from './pack-fixtures.js';
export { type AdapterConformanceReport, adapterFixtureNames, runAdapterConformanceReport } from './run-adapter-conformance.js';
export { runAdapterConformance } from './vitest-suite.js';
export { runAdapterConformanceWithLossReport } from './loss-report-suite.js';
export { runRoundTripProperty } from './roundtrip-property.js';
export { type RoundTripBenchRow, runRoundTripBench } from './roundtrip-bench.js';
export { jsonShape, loadRecordedExchanges, type RecordedExchange } from './recorded-exchanges.js';
export { jsonTwinPath, lossReportIsCurrent, mergedLossReport, readLossReport, writeLossReport } from './loss-report-file.js';
export { runSnapshotContract } from './snapshot-contract.js';
