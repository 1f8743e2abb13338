/**
 * Typed refusals of the memory layer. Each is an `EwpError` with a stable code of
 * {@link MEMORY_ERROR_CODES} and the path of the offending field; nothing is written when one is thrown.
 */
import { type ErrorCodeTable, EwpError } from '@ewp/core';

/** The codes the memory layer refuses with (only @ewp/memory raises them), with their meanings. */
export const MEMORY_ERROR_CODES = {
  EWP_REFUSE_MEMORY_INPUT: 'a memory-layer call with a missing or malformed field (text, class, project, source, time, config)',
  EWP_REFUSE_MEMORY_UNKNOWN: 'no memory with that hash in the store',
  EWP_REFUSE_MEMORY_CLASS_CONFLICT: 'a memory stored again under another class (a class changes only by reclass)',
  EWP_REFUSE_MEMORY_SUPPORT_CLASS: 'an inference or hypothesis given as support or refutation (only observations and evidence may)',
  EWP_REFUSE_MEMORY_SELF_LINK: 'a memory given as support or refutation of itself',
  EWP_REFUSE_MEMORY_PROJECT_SCOPE: 'a support or refutation from another project scope than the memory it is linked to',
  EWP_REFUSE_MEMORY_LINK_CONFLICT: 'one memory given as both support and refutation of the same memory',
  EWP_REFUSE_MEMORY_MEASURE_UNAVAILABLE: 'the chosen echo measure cannot load its data (the word-vector file is missing or damaged)',
} as const satisfies ErrorCodeTable;

/** A code of {@link MEMORY_ERROR_CODES}. */
export type MemoryErrorCode = keyof typeof MEMORY_ERROR_CODES;

/** A memory-layer refusal. `memory` names the memory (hash) the refusal is about, when there is one. */
export class MemoryError extends EwpError<MemoryErrorCode> {
  static override readonly marker: symbol = Symbol.for('ewp.error.MemoryError');
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
