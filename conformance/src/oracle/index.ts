/**
 * An independent EWP-0.2.0 / reference-v2 evaluator written from docs/spec/protocol.md alone, used as a test
 * oracle against `@ewp/core`. It shares no code with the kernel: its own JSON reader, its own
 * Python `str()`/float repr, its own timestamp grammar, a table-driven validator.
 * @packageDocumentation
 */
export { compareCodePoints, sortedByCodePoint } from './code-point-order.js';
export { type DecodeRefusal, decodeView as decodeOracleView, isRefusal } from './decode-view.js';
export { evaluateDecoded, type OracleWarrantView, RecordTimeOutOfRange } from './evaluate-view.js';
export {
  evaluateHarnessLine,
  evaluateView,
  evaluateViewValue,
  type OracleErrorClass,
  type OracleOptions,
  type OracleOutcome,
} from './harness.js';
export { type OracleInstant, pythonStrip, readInstant } from './instant.js';
export { OracleJsonError, readJsonText } from './json-text.js';
export { fromPlain, type JValue, toPlain } from './json-value.js';
export { PYTHON_LOWER_EXCEPTIONS, pythonLower } from './python-lower.js';
export { pythonFloatRepr, pythonRepr, pythonStr } from './python-text.js';
export { canonicalText, derivedViewId } from './view-id.js';
export type { OView } from './view-model.js';
export { allPaths, DELETE, type JPath, writeJsonText } from './json-write.js';
export { type GateAxes, type GateInput, gateDecision, type OracleDecision } from './may-act.js';
