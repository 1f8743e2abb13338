/** An agent tried to read or write the namespace that holds EWP records through the BaseStore API. */
export class ReservedNamespaceError extends Error {
  readonly code = 'EWP_REFUSE_RESERVED_NAMESPACE' as const;
  /** JSON path of the offending value. */
  readonly path = '$.namespace[0]';
  readonly namespaceRoot: string;
  constructor(namespaceRoot: string, operation: string) {
    super(`${operation}: namespace root ${JSON.stringify(namespaceRoot)} holds EWP records; use store.ledger`);
    this.name = 'ReservedNamespaceError';
    this.namespaceRoot = namespaceRoot;
  }
}
