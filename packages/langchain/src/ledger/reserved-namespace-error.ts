import { type ErrorCodeTable, EwpError } from '@ewp/core';

/** The error codes only @ewp/langchain raises, with their meanings. */
export const LANGCHAIN_ERROR_CODES = {
  EWP_REFUSE_RESERVED_NAMESPACE: 'a BaseStore read or write of the namespace that holds the EWP records',
} as const satisfies ErrorCodeTable;

/** A code of {@link LANGCHAIN_ERROR_CODES}. */
export type LangChainErrorCode = keyof typeof LANGCHAIN_ERROR_CODES;

/** An agent tried to read or write the namespace that holds EWP records through the BaseStore API. */
export class ReservedNamespaceError extends EwpError<LangChainErrorCode> {
  static override readonly marker: symbol = Symbol.for('ewp.error.ReservedNamespaceError');
  declare readonly path: string;
  readonly namespaceRoot: string;
  constructor(namespaceRoot: string, operation: string) {
    super(
      'EWP_REFUSE_RESERVED_NAMESPACE',
      `${operation}: namespace root ${JSON.stringify(namespaceRoot)} holds EWP records; use store.ledger`,
      '$.namespace[0]',
    );
    this.name = 'ReservedNamespaceError';
    this.namespaceRoot = namespaceRoot;
  }
}
