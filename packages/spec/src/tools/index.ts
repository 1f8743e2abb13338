/**
 * `@ewp/spec/tools` — the registry of every agent-callable tool ({@link TOOL_SPECS}: name, title,
 * description, zod input and output schema, role), the names and types derived from it, their JSON
 * Schemas, the refusal shape, and the zod schemas of the EWP-0.2.0 wire types. Needs `zod` (an
 * optional peer of `@ewp/spec`; the root entry does not).
 * @packageDocumentation
 */
export { EWP_TOOL_CODES, type EwpToolCode } from '../tool-codes.js';
export { MEMORY_ARGUMENT_FIELDS } from './memory-tools.js';
export {
  INGEST_TOOL_NAMES,
  type IngestToolName,
  inputJsonSchema,
  isToolName,
  jsonSchemaOf,
  type ObjectJsonSchema,
  outputJsonSchema,
  READ_TOOL_NAMES,
  type ReadToolName,
  refusalSchema,
  TOOL_NAMES,
  TOOL_SPECS,
  type ToolInput,
  type ToolName,
  type ToolOutput,
  toolNamesFor,
} from './registry.js';
export { TOOL_ROLES, type ToolRole, type ToolSpec } from './shared.js';
export {
  actionSchema,
  assertionSchema,
  conflictSchema,
  evidenceItemSchema,
  evidenceViewSchema,
  exactly,
  lineageEdgeSchema,
  policySchema,
  riskPolicySchema,
  sourceRefSchema,
  verificationCheckSchema,
  warrantAxesSchema,
  warrantSchema,
  warrantViewSchema,
} from './wire.js';
