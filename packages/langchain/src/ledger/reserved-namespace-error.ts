import { EwpError } from '@ewp/core';

/** An agent tried to read or write the namespace that holds EWP records through the BaseStore API. */
export class ReservedNamespaceError extends EwpError {
  static override readonly marker: symbol = Symbol.for('ewp.error.ReservedNamespaceError');
  declare readonly code: 'EWP_REFUSE_RESERVED_NAMESPACE';
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
