/**
 * @ewp/conformance — the EWP-0.2.0 conformance pack, the shared evaluator suite, and (in
 * subpath entries) the store suite, the adapter suite, an independent oracle evaluator and
 * fast-check generators.
 * @packageDocumentation
 */
export * from './pack/index.js';
export * from './evaluator-suite.js';
export { coreEvaluator } from './core-evaluator.js';
export { evaluateHarnessLine } from './oracle/index.js';
export { arbitraryView } from './generators/index.js';
export { testSource } from './test-source.js';
