import { EwpError } from '@ewp/core';
import type { ToolErrorCode } from '../refusal.js';

/** Codes of {@link DecisionError}: the decision codes of `TOOL_ERROR_CODES`, and core's bad-arguments code. */
export type DecisionErrorCode = Extract<ToolErrorCode, `EWP_REFUSE_DECISION_${string}`> | 'EWP_REFUSE_INVALID_ARGUMENTS';

/**
 * A decision could not be found, recorded or executed, or a call about decisions had a bad argument. A gate that cannot record its decision
 * throws this instead of deciding (fail closed); a guarded run throws it instead of running.
 */
export class DecisionError extends EwpError<DecisionErrorCode> {
  static override readonly marker: symbol = Symbol.for('ewp.error.DecisionError');
  /** The decision concerned, when there is one. */
  readonly decisionId: string | undefined;
  constructor(code: DecisionErrorCode, message: string, options: { decisionId?: string; path?: string; cause?: unknown } = {}) {
    super(code, message, { path: options.path, cause: options.cause });
    this.name = 'DecisionError';
    this.decisionId = options.decisionId;
  }
}
