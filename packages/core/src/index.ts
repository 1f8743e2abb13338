/**
 * @ewp/core — the EWP-0.2.0 kernel (policy `reference-v2`): decode and refuse EvidenceViews,
 * evaluate them with {@link warrantNow}, and gate actions with {@link mayAct}.
 * No third-party dependencies; no I/O, no clock. The data model and vocabularies it evaluates are
 * `@ewp/spec`'s, re-exported here so a kernel user needs one import.
 * @packageDocumentation
 */
export * from '@ewp/spec';
export * from './errors.js';
export { EWP_ERROR_CODES } from './error-codes.js';
export { checkFieldSize, checkJsonBounds, FieldTooLargeError, fieldTooLarge } from './field-limits.js';
export { JsonFloat, parseJson, parseJsonExact } from './json/parse-json.js';
export { InvalidJsonError, type InvalidJsonCode, parseJsonStrict, type StrictJsonOptions } from './json/parse-json-strict.js';
export { type JsonFail, type JsonProblem, type JsonReadPolicy, jsonIndexPath, jsonMemberPath, readJsonWith } from './json/json-reader.js';
export { decodeUtf8, InvalidUtf8Error, isWellFormed, Utf8StreamDecoder } from './json/utf8.js';
export { isPlainJsonString, jsonString } from './json/json-string.js';
export { decodeView, decodeViewJson, namesProposition } from './decode/decode-view.js';
export { canonicalViewText, deriveViewId } from './decode/view-id.js';
export { emptyView } from './decode/empty-view.js';
export { sha256HexOfBytes } from './decode/sha256.js';
export { compareCodePoints, sortedByCodePoint } from './decode/codepoint-order.js';
export { pythonFloatRepr, pythonStr } from './decode/python-text.js';
export {
  parseEvaluatedAt,
  pieceContains,
  type WarrantPiece,
  warrantInPiece,
  warrantNow,
  warrantWithHorizon,
} from './evaluate/warrant-now.js';
export { normalizeWarrantView, normativeWarrant } from './evaluate/normalize.js';
export { normalizedWarrantViewJson } from './evaluate/warrant-view-json.js';
export { bindsToView, classifyCheck, lowerSubjects } from './evaluate/classify-check.js';
export { ENDOGENOUS_ORIGINS, EXTERNAL_METHODS, HUMAN_METHODS, INDIRECT_METHODS, TRUSTED_ORIGINS, isTrustedOrigin } from './evaluate/policy-tables.js';
export { pythonLower } from './evaluate/python-lower.js';
export { type GateRule, type GateSituation, gateRuleFor, MAY_ACT_RULES, mayAct } from './may-act.js';
export type * from './adapter-contract.js';
export {
  compareInstants,
  formatInstant,
  type Instant,
  isStale,
  type ParsedTime,
  parseInstant,
  staleFrom,
} from './time/parse-instant.js';
