/**
 * The inspector's own error codes. Its other refusals carry the codes of the store it reads
 * (`EWP_REFUSE_LEDGER_UNAVAILABLE`, `EWP_REFUSE_INGEST_ROLE`), from core's table.
 */
import type { ErrorCodeTable } from '@ewp/core';

/** The error codes only @ewp/inspect raises, with their meanings. */
export const INSPECT_ERROR_CODES = {
  INSPECT_BAD_REQUEST: 'an inspector API request with a missing or malformed parameter, or naming nothing stored',
  INSPECTOR_ASSETS_MISSING: 'the inspector page is not built into the package',
} as const satisfies ErrorCodeTable;

/** A code of {@link INSPECT_ERROR_CODES}. */
export type InspectErrorCode = keyof typeof INSPECT_ERROR_CODES;
