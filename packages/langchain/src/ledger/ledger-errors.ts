/**
 * Typed refusals of the BaseStore-backed ledger. Codes are the MCP contract's codes
 * (STORES.md §5), so a refusal reads the same whichever surface reported it.
 */
export type LedgerRefusalCode =
  | 'EWP_REFUSE_IMMUTABLE_RECORD'
  | 'EWP_REFUSE_MISSING_VIEW'
  | 'EWP_REFUSE_LEDGER_UNAVAILABLE'
  | 'EWP_REFUSE_RESERVED_NAMESPACE';

/** A ledger operation was refused; nothing was written. */
export class LedgerRefusal extends Error {
  readonly code: LedgerRefusalCode;
  /** JSON path of the offending value when there is one (`$.checks[0]`). */
  readonly path: string | undefined;
  constructor(code: LedgerRefusalCode, message: string, path?: string) {
    super(path === undefined ? message : `${path}: ${message}`);
    this.name = 'LedgerRefusal';
    this.code = code;
    this.path = path;
  }
}
