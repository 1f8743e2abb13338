/** The ledger entry kinds of decision records, re-evaluations, retractions, plans and key states (docs/spec/receipts.md §12.8). */
export const DECISION_ENTRY_KINDS = {
  /** One gate decision: id = the decision id, subjects = the propositions consulted. */
  decision: 'decision',
  /** A guarded run's claim to execute a decision once (the durable replay guard): id = the decision id. */
  execution: 'decision.execution',
  /**
   * A guarded run's claim to execute one framework call once, across every decision made on it (a
   * resumed or replayed approval decides again): id = `callClaimId(gate, callId)`,
   * appended in the same write as the decision's `execution` claim.
   */
  call: 'decision.call',
  /** What the execution did: id = the decision id. */
  outcome: 'decision.outcome',
  /** A recorded confirmation of a REQUIRE_CONFIRMATION decision: id = the decision id. */
  confirmation: 'decision.confirmation',
  /** A re-evaluation of one proposition on its newest snapshot, with its receipt digest. */
  evaluated: 'warrant.evaluated',
  /** An explicit retraction of records of a proposition (REFUTED in re-verification). */
  invalidation: 'invalidation',
  /** A recovery plan, as computed and reported. */
  plan: 'recovery.plan',
  /** A signing key's state change (ACTIVE, RETIRED, REVOKED) with its public key. */
  keyState: 'key.state',
} as const;
