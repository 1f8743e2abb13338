/**
 * @ewp/harm-bench — a benchmark of wrong actions on drifting memory: the scenario format and its
 * decoder, the generator of the committed set, the arms, the run and its table and chart.
 * @packageDocumentation
 */
export {
  type AssertEvent,
  claimTexts,
  decodeScenario,
  decodeScenarios,
  HARM_BENCH_ERROR_CODES,
  type ObserveEvent,
  type Origin,
  type RecallEvent,
  type RetractEvent,
  type Risk,
  type Scenario,
  type ScenarioAct,
  ScenarioError,
  type ScenarioEvent,
  type SupersedeEvent,
  type Truth,
  type Via,
} from './scenario.js';
export { FAMILIES, type Family, type GenerateOptions, generateScenarios, scenariosJsonl, seededRandom } from './generator.js';
export {
  ARM_IDS,
  type Arm,
  type ArmId,
  type Decision,
  type DecisionStore,
  decisionStore,
  decideWithLayer,
  type LayerDecisions,
  layerArms,
  mem0Arm,
  plainArm,
  zepArm,
} from './arms.js';
export { type ArmReport, type BenchReport, count, type RunOptions, runBench, type SkippedArm, type Tally } from './run.js';
export { renderSvg, renderTable } from './render.js';

/** Where the committed scenario set lies (`scenarios/harm-v1.jsonl` in this package). */
export const COMMITTED_SCENARIOS: URL = new URL('../scenarios/harm-v1.jsonl', import.meta.url);
