/**
 * Typed refusals of the memory layer. Each is an `EwpError` with a stable code from the one code
 * table of @ewp/core and the path of the offending field; nothing is written when one is thrown.
 */
import { EwpError } from '@ewp/core';

/** The codes the memory layer refuses with. */
export type MemoryErrorCode =
  | 'EWP_REFUSE_MEMORY_INPUT'
  | 'EWP_REFUSE_MEMORY_UNKNOWN'
  | 'EWP_REFUSE_MEMORY_CLASS_CONFLICT'
  | 'EWP_REFUSE_MEMORY_SUPPORT_CLASS'
  | 'EWP_REFUSE_MEMORY_SELF_LINK'
  | 'EWP_REFUSE_MEMORY_PROJECT_SCOPE'
  | 'EWP_REFUSE_MEMORY_LINK_CONFLICT';

/** A memory-layer refusal. `memory` names the memory (hash) the refusal is about, when there is one. */
export class MemoryError extends EwpError {
  static override readonly marker: symbol = Symbol.for('ewp.error.MemoryError');
  declare readonly code: MemoryErrorCode;
  /** The memory hash the refusal names (the offending support, the unknown id), when there is one. */
  readonly memory: string | undefined;
  constructor(code: MemoryErrorCode, message: string, options: { path?: string; memory?: string; cause?: unknown } = {}) {
    super(code, message, { path: options.path, cause: options.cause });
    this.name = 'MemoryError';
    this.memory = options.memory;
  }
}

/** Bad input: `path` names the field. */
export function badInput(path: string, message: string): MemoryError {
  return new MemoryError('EWP_REFUSE_MEMORY_INPUT', message, { path });
}
