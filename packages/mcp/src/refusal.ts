/**
 * Tool refusals: the stable `EWP_*` codes of the reference MCP server (STORES.md §5) and the
 * mapping from kernel and store errors onto them.
 */
import { EwpError, InvalidEvidenceView } from '@ewp/core';

/** Every code a tool call can be refused with. */
export type EwpToolCode =
  | 'EWP_REFUSE_INGEST_ROLE'
  | 'EWP_REFUSE_UNATTESTED_TRUSTED_ORIGIN'
  | 'EWP_REFUSE_IMMUTABLE_RECORD'
  | 'EWP_REFUSE_INVALID_EVIDENCE_VIEW'
  | 'EWP_REFUSE_LEDGER_UNAVAILABLE'
  | 'EWP_REFUSE_INVALID_ARGUMENTS'
  | 'EWP_REFUSE_PERSIST_WARRANT'
  | 'EWP_REFUSE_CLIENT_SUPPLIED_WARRANT'
  | 'EWP_REFUSE_INLINE_VIEW_FOR_ACTION'
  | 'EWP_REFUSE_INVALID_ACTION'
  | 'EWP_REFUSE_EVALUATED_AT_SKEW'
  | 'EWP_REFUSE_STALE_VIEW_FOR_ACTION'
  | 'EWP_REFUSE_CLIENT_RISK_POLICY'
  | 'EWP_REFUSE_MISSING_CONTENT_HASH'
  | 'EWP_REFUSE_MISSING_OBSERVED_AT'
  | 'EWP_REFUSE_MISSING_VIEW'
  | 'EWP_REFUSE_MAY_ACT_WITHOUT_ACTION'
  | 'EWP_MISSING_EVALUATED_AT'
  | 'EWP_UNKNOWN_TOOL'
  | 'EWP_UNKNOWN_RESOURCE';

/** Every tool refusal code, for docs and exhaustive tests. */
export const EWP_TOOL_CODES: readonly EwpToolCode[] = [
  'EWP_REFUSE_INGEST_ROLE',
  'EWP_REFUSE_UNATTESTED_TRUSTED_ORIGIN',
  'EWP_REFUSE_IMMUTABLE_RECORD',
  'EWP_REFUSE_INVALID_EVIDENCE_VIEW',
  'EWP_REFUSE_LEDGER_UNAVAILABLE',
  'EWP_REFUSE_INVALID_ARGUMENTS',
  'EWP_REFUSE_PERSIST_WARRANT',
  'EWP_REFUSE_CLIENT_SUPPLIED_WARRANT',
  'EWP_REFUSE_INLINE_VIEW_FOR_ACTION',
  'EWP_REFUSE_INVALID_ACTION',
  'EWP_REFUSE_EVALUATED_AT_SKEW',
  'EWP_REFUSE_STALE_VIEW_FOR_ACTION',
  'EWP_REFUSE_CLIENT_RISK_POLICY',
  'EWP_REFUSE_MISSING_CONTENT_HASH',
  'EWP_REFUSE_MISSING_OBSERVED_AT',
  'EWP_REFUSE_MISSING_VIEW',
  'EWP_REFUSE_MAY_ACT_WITHOUT_ACTION',
  'EWP_MISSING_EVALUATED_AT',
  'EWP_UNKNOWN_TOOL',
  'EWP_UNKNOWN_RESOURCE',
];

/** A refused tool call. Thrown inside tool handlers and turned into an `isError` result. */
export class ToolRefusal extends Error {
  readonly code: EwpToolCode;
  constructor(code: EwpToolCode, message: string) {
    super(message);
    this.name = 'ToolRefusal';
    this.code = code;
  }
}

/** Error names the ledger packages use (matched by name so any EvidenceStore implementation maps). */
const STORE_ERROR_CODES: Record<string, EwpToolCode> = {
  ImmutableRecordError: 'EWP_REFUSE_IMMUTABLE_RECORD',
  MissingViewError: 'EWP_REFUSE_MISSING_VIEW',
  ReadOnlyStoreError: 'EWP_REFUSE_INGEST_ROLE',
  ReadOnlyError: 'EWP_REFUSE_INGEST_ROLE',
};

/**
 * Map anything thrown while serving a tool to a refusal. Kernel refusals keep their path in the
 * message; an error that is not a known refusal means the ledger failed (locked, damaged, closed).
 */
export function toRefusal(error: unknown): ToolRefusal {
  if (error instanceof ToolRefusal) return error;
  if (error instanceof InvalidEvidenceView) {
    return new ToolRefusal('EWP_REFUSE_INVALID_EVIDENCE_VIEW', `${error.message} (rule ${error.rule}, code ${error.code})`);
  }
  if (EwpError.isInstance(error)) {
    // Store errors are EwpErrors too, and carry the tool code themselves.
    if ((EWP_TOOL_CODES as readonly string[]).includes(error.code)) return new ToolRefusal(error.code as EwpToolCode, error.message);
    switch (error.code) {
      case 'TIMESTAMP_OUT_OF_RANGE':
        // The reference leaks this as a JSON-RPC -32000; here it is a typed refusal naming the field.
        return new ToolRefusal(
          error.path === '$.evaluated_at' ? 'EWP_REFUSE_INVALID_ARGUMENTS' : 'EWP_REFUSE_INVALID_EVIDENCE_VIEW',
          error.message,
        );
      case 'BAD_EVALUATED_AT':
      case 'UNKNOWN_POLICY':
        return new ToolRefusal('EWP_REFUSE_INVALID_ARGUMENTS', error.message);
      case 'INVALID_ACTION':
        return new ToolRefusal('EWP_REFUSE_INVALID_ACTION', error.message);
      default:
        return new ToolRefusal('EWP_REFUSE_INVALID_EVIDENCE_VIEW', error.message);
    }
  }
  if (error instanceof Error) {
    // Store errors (@ewp/ledger LedgerError and its kin) carry the MCP code itself.
    const ownCode = (error as { code?: unknown }).code;
    if (typeof ownCode === 'string' && (EWP_TOOL_CODES as readonly string[]).includes(ownCode)) {
      return new ToolRefusal(ownCode as EwpToolCode, error.message);
    }
    const storeCode = STORE_ERROR_CODES[error.name];
    if (storeCode !== undefined) return new ToolRefusal(storeCode, error.message);
    const code = (error as { code?: unknown }).code;
    if (code === 'IMMUTABLE_RECORD') return new ToolRefusal('EWP_REFUSE_IMMUTABLE_RECORD', error.message);
    if (code === 'MISSING_VIEW') return new ToolRefusal('EWP_REFUSE_MISSING_VIEW', error.message);
    if (code === 'READ_ONLY') return new ToolRefusal('EWP_REFUSE_INGEST_ROLE', error.message);
    return new ToolRefusal('EWP_REFUSE_LEDGER_UNAVAILABLE', `ledger unavailable: ${error.message}`);
  }
  return new ToolRefusal('EWP_REFUSE_LEDGER_UNAVAILABLE', `ledger unavailable: ${String(error)}`);
}
