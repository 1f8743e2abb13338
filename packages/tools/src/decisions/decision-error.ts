import { EwpError } from '@ewp/core';

/** Codes of {@link DecisionError}. */
export type DecisionErrorCode =
  | 'EWP_REFUSE_DECISION_UNKNOWN'
  | 'EWP_REFUSE_DECISION_NOT_RECORDED'
  | 'EWP_REFUSE_DECISION_NOT_EXECUTABLE'
  | 'EWP_REFUSE_INVALID_ARGUMENTS';

/**
 * A decision could not be found, recorded or executed, or a call about decisions had a bad argument. A gate that cannot record its decision
 * throws this instead of deciding (fail closed); a guarded run throws it instead of running.
 */
export class DecisionError extends EwpError {
  static override readonly marker: symbol = Symbol.for('ewp.error.DecisionError');
  declare readonly code: DecisionErrorCode;
  /** The decision concerned, when there is one. */
  readonly decisionId: string | undefined;
  constructor(code: DecisionErrorCode, message: string, options: { decisionId?: string; path?: string; cause?: unknown } = {}) {
    super(code, message, { path: options.path, cause: options.cause });
    this.name = 'DecisionError';
    this.decisionId = options.decisionId;
  }
}
