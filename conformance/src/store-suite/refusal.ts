/** The suite's refusal helpers, shared by its case files. */

/** Error codes the suite expects (docs/spec/store-contract.md §5). */
export const STORE_ERROR_CODES = {
  immutable: 'EWP_REFUSE_IMMUTABLE_RECORD',
  missingView: 'EWP_REFUSE_MISSING_VIEW',
  unavailable: 'EWP_REFUSE_LEDGER_UNAVAILABLE',
  invalidEntry: 'EWP_REFUSE_INVALID_ENTRY',
} as const;

/** The error `promise` rejects with; fails the test when it resolves. */
export async function refusal(promise: Promise<unknown>): Promise<{ code?: unknown; name?: unknown; path?: unknown }> {
  try {
    await promise;
  } catch (error) {
    return error as { code?: unknown };
  }
  throw new Error('expected a refusal, but the call succeeded');
}
