/**
 * Tool refusals: the one refusal class of every EWP tool binding, the table of the codes a tool
 * call can be refused with, and the mapping from kernel and store errors onto them (by `code`,
 * never by class identity, so it holds across duplicate installs and any EvidenceStore).
 */
import { type ErrorCodeTable, EwpError, type EwpErrorCode, InvalidEvidenceView } from '@ewp/core';
import type { MemoryErrorCode } from '@ewp/memory';
import { EWP_TOOL_CODES, type EwpToolCode } from '@ewp/spec';

/**
 * The error codes only @ewp/tools raises (tool-call refusals and decision records), with their
 * meanings. Every binding (MCP, AI SDK, LangChain, …) passes them on unchanged.
 */
export const TOOL_ERROR_CODES = {
  EWP_REFUSE_UNATTESTED_TRUSTED_ORIGIN: 'a trusted origin claimed without attestation',
  EWP_REFUSE_INVALID_EVIDENCE_VIEW: 'a view given to a tool breaks a rule of the protocol',
  EWP_REFUSE_PERSIST_WARRANT: 'an attempt to store a warrant as evidence',
  EWP_REFUSE_CLIENT_SUPPLIED_WARRANT: 'a client passed its own warrant where the server computes it',
  EWP_REFUSE_INLINE_VIEW_FOR_ACTION: 'an action gated on a view the client supplied inline',
  EWP_REFUSE_INVALID_ACTION: 'the action given to the gate is malformed',
  EWP_REFUSE_EVALUATED_AT_SKEW: 'the evaluation time is too far from the server clock',
  EWP_REFUSE_STALE_VIEW_FOR_ACTION: 'the gate was asked about a view older than the latest',
  EWP_REFUSE_CLIENT_RISK_POLICY: 'a client tried to pass its own risk policy',
  EWP_REFUSE_MISSING_CONTENT_HASH: 'an external check without a content hash',
  EWP_REFUSE_MISSING_OBSERVED_AT: 'a record without an observation time',
  EWP_REFUSE_MAY_ACT_WITHOUT_ACTION: 'the gate was called without an action',
  EWP_MISSING_EVALUATED_AT: 'a tool that needs an evaluation time got none',
  EWP_UNKNOWN_TOOL: 'no tool of that name',
  EWP_REFUSE_DECISION_UNKNOWN: 'no recorded decision with that id in the ledger',
  EWP_REFUSE_DECISION_NOT_RECORDED: 'the gate could not record its decision in the ledger, so nothing runs (fail closed)',
  EWP_REFUSE_DECISION_NOT_EXECUTABLE: 'a guarded run refused: the decision does not permit acting, its evidence changed, or it already ran',
  EWP_REFUSE_SOURCE_NOT_ALLOWED: "a memory write named a source the operator has not allowed its writer's principal to name",
  EWP_REFUSE_CLASS_NOT_ALLOWED: 'a principal the operator has not made an observer asked to store an observation or evidence',
} as const satisfies ErrorCodeTable;

/** A code of {@link TOOL_ERROR_CODES}. */
export type ToolErrorCode = keyof typeof TOOL_ERROR_CODES;

/** Every code a tool call can be refused with (the registry's list, `@ewp/spec/tools`). */
export { EWP_TOOL_CODES, type EwpToolCode };

// The registry's list holds only codes some package defines, and every code of the memory layer (the memory tools pass them on).
EWP_TOOL_CODES satisfies readonly (ToolErrorCode | EwpErrorCode | MemoryErrorCode)[];
true satisfies [Exclude<MemoryErrorCode, EwpToolCode>] extends [never] ? true : never;

const TOOL_CODES: ReadonlySet<string> = new Set(EWP_TOOL_CODES);

/** Whether `code` is one of {@link EWP_TOOL_CODES}. */
export function isToolCode(code: unknown): code is EwpToolCode {
  return typeof code === 'string' && TOOL_CODES.has(code);
}

/**
 * A refused tool call. Every binding turns it into the result the model reads
 * ({@link refusalPayload}); test for it with `ToolRefusal.isInstance(e)`.
 */
export class ToolRefusal extends EwpError<EwpToolCode> {
  static override readonly marker: symbol = Symbol.for('ewp.error.ToolRefusal');
  /** The message without the path prefix `EwpError` adds (what the model is told). */
  readonly reason: string;
  constructor(code: EwpToolCode, reason: string, options: { path?: string | undefined; cause?: unknown } = {}) {
    super(code, reason, options);
    this.name = 'ToolRefusal';
    this.reason = reason;
  }
}

/** What a refused call returns to the model, in every binding (MCP adds its own framing). */
export interface RefusalPayload {
  error: { code: EwpToolCode; message: string; path?: string };
}

/** The payload of a refusal: code, message (with the path) and, when there is one, the JSON path. */
export function refusalPayload(refusal: ToolRefusal): RefusalPayload {
  return {
    error: refusal.path === undefined ? { code: refusal.code, message: refusal.message } : { code: refusal.code, message: refusal.message, path: refusal.path },
  };
}

/** Kernel codes that mean a bad argument rather than a bad view. */
const ARGUMENT_CODES: ReadonlySet<string> = new Set(['BAD_EVALUATED_AT', 'UNKNOWN_POLICY']);

/**
 * Map a kernel or store error to a refusal, or return `undefined` when `error` is not one of
 * ours (a defect, which the binding reports as a tool failure, not as a code).
 */
export function asRefusal(error: unknown): ToolRefusal | undefined {
  if (ToolRefusal.isInstance(error)) return error;
  const code = (error as { code?: unknown } | null)?.code;
  const path = (error as { path?: unknown } | null)?.path;
  const at = typeof path === 'string' ? path : undefined;
  const full = error instanceof Error ? error.message : String(error);
  // EwpError prefixes its message with the path; keep the path as a field and the reason once.
  const message = at !== undefined && full.startsWith(`${at}: `) ? full.slice(at.length + 2) : full;
  const cause = { cause: error, path: at };
  if (InvalidEvidenceView.isInstance(error)) {
    // The kernel's message already names the path; the rule and code say which rule of docs/spec/protocol.md §4 refused it.
    return new ToolRefusal('EWP_REFUSE_INVALID_EVIDENCE_VIEW', `${message} (rule ${error.rule}, code ${error.code})`, cause);
  }
  if (EwpError.isInstance(error)) {
    if (isToolCode(error.code)) return new ToolRefusal(error.code, message, cause);
    if (error.code === 'TIMESTAMP_OUT_OF_RANGE') {
      // An out-of-range T is a bad argument; an out-of-range record time is a bad view.
      return new ToolRefusal(at === '$.evaluated_at' ? 'EWP_REFUSE_INVALID_ARGUMENTS' : 'EWP_REFUSE_INVALID_EVIDENCE_VIEW', message, cause);
    }
    if (ARGUMENT_CODES.has(error.code)) return new ToolRefusal('EWP_REFUSE_INVALID_ARGUMENTS', message, cause);
    if (error.code === 'INVALID_ACTION') return new ToolRefusal('EWP_REFUSE_INVALID_ACTION', message, cause);
    return new ToolRefusal('EWP_REFUSE_INVALID_EVIDENCE_VIEW', message, cause);
  }
  // Store errors of any EvidenceStore carry the tool code themselves (the store contract).
  if (isToolCode(code)) return new ToolRefusal(code, message, cause);
  return undefined;
}

/**
 * Map anything thrown while a tool reads or writes the ledger to a refusal: a known error keeps
 * its code; anything else means the ledger failed (locked, damaged, closed, unreachable).
 */
export function toRefusal(error: unknown): ToolRefusal {
  return (
    asRefusal(error) ??
    new ToolRefusal('EWP_REFUSE_LEDGER_UNAVAILABLE', `ledger unavailable: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    })
  );
}

/** A bad argument, named by its JSON path. */
export function invalidArgument(path: string, message: string): ToolRefusal {
  return new ToolRefusal('EWP_REFUSE_INVALID_ARGUMENTS', message, { path });
}
