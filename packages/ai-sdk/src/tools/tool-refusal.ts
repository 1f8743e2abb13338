/**
 * Typed refusals at the tool boundary. A refused call returns `{ error: { code, message, path? } }`
 * as its result, so the model can read why; the codes are the MCP contract's (STORES.md §5).
 */
import { EwpError, InvalidAction, InvalidEvaluatedAt, TimestampOutOfRange, UnknownPolicy } from '@ewp/core';
import { ImmutableRecordError, MissingViewError, StoreUnavailableError } from '@ewp/ledger';
import { z } from 'zod';

export type RefusalCode =
  | 'EWP_REFUSE_UNATTESTED_TRUSTED_ORIGIN'
  | 'EWP_REFUSE_IMMUTABLE_RECORD'
  | 'EWP_REFUSE_INVALID_EVIDENCE_VIEW'
  | 'EWP_REFUSE_LEDGER_UNAVAILABLE'
  | 'EWP_REFUSE_INVALID_ARGUMENTS'
  | 'EWP_REFUSE_INVALID_ACTION'
  | 'EWP_REFUSE_STALE_VIEW_FOR_ACTION'
  | 'EWP_REFUSE_MISSING_CONTENT_HASH'
  | 'EWP_REFUSE_MISSING_OBSERVED_AT'
  | 'EWP_REFUSE_MISSING_VIEW';

export interface ToolRefusal {
  error: { code: RefusalCode; message: string; path?: string };
}

export const toolRefusalSchema = z.object({
  error: z.object({ code: z.string(), message: z.string(), path: z.string().optional() }),
});

export function refusal(code: RefusalCode, message: string, path?: string): ToolRefusal {
  return { error: path === undefined ? { code, message } : { code, message, path } };
}

/** A refusal the caller raised on purpose inside a tool (mapped as is). */
export class ToolRefusalError extends Error {
  constructor(readonly refusal: ToolRefusal) {
    super(refusal.error.message);
    this.name = 'ToolRefusalError';
  }
}

/**
 * Map the typed errors of @ewp/core and @ewp/ledger to refusals; anything else is not a refusal
 * (a bug or an outage the SDK should report as a tool error) and is rethrown.
 */
export function toRefusal(error: unknown): ToolRefusal {
  if (error instanceof ToolRefusalError) return error.refusal;
  if (error instanceof ImmutableRecordError) return refusal('EWP_REFUSE_IMMUTABLE_RECORD', error.message, error.path);
  if (error instanceof MissingViewError) return refusal('EWP_REFUSE_MISSING_VIEW', error.message);
  if (error instanceof StoreUnavailableError) return refusal('EWP_REFUSE_LEDGER_UNAVAILABLE', error.message);
  if (error instanceof InvalidAction) return refusal('EWP_REFUSE_INVALID_ACTION', error.message, error.path);
  if (error instanceof InvalidEvaluatedAt || error instanceof TimestampOutOfRange || error instanceof UnknownPolicy) {
    return refusal('EWP_REFUSE_INVALID_ARGUMENTS', error.message, error.path);
  }
  if (error instanceof EwpError) return refusal('EWP_REFUSE_INVALID_EVIDENCE_VIEW', error.message, error.path);
  throw error;
}

/** Run `work`, turning typed errors into a refusal result. */
export async function refusing<T>(work: () => Promise<T>): Promise<T | ToolRefusal> {
  try {
    return await work();
  } catch (error) {
    return toRefusal(error);
  }
}
