/** Reading recorded decisions back from a ledger, and verifying them offline from the ledger alone. */
import type { EvidenceView } from '@ewp/core';
import type { EvidenceStore, LedgerEntry } from '@ewp/ledger';
import { type DecisionVerification, type SignatureVerifier, verifyDecisionRecord } from '@ewp/receipts';
import { DecisionError } from './decision-error.js';
import { type StoredDecision, storedDecision } from './decision-ledger.js';
import { DECISION_ENTRY_KINDS } from './entry-kinds.js';
import { ledgerKeyVerifier } from './key-states.js';

/**
 * The decision recorded under `decisionId`.
 * @throws {DecisionError} `EWP_REFUSE_DECISION_UNKNOWN` when the ledger holds none.
 */
export async function readDecision(store: EvidenceStore, decisionId: string): Promise<StoredDecision> {
  const [entry] = await store.readEntries({ kind: DECISION_ENTRY_KINDS.decision, id: decisionId, limit: 1 });
  const stored = entry === undefined ? undefined : storedDecision(entry);
  if (stored === undefined) throw new DecisionError('EWP_REFUSE_DECISION_UNKNOWN', `no recorded decision ${JSON.stringify(decisionId)}`, { decisionId });
  return stored;
}

/** Which decisions {@link listDecisions} returns. */
export interface DecisionQuery {
  /** Only decisions that consulted this proposition. */
  proposition?: string;
  /** Only decisions after this chain index. */
  afterIndex?: number;
  /** Default 1000, at most 100000; oldest first. */
  limit?: number;
}

/** Recorded decisions, oldest first. */
export async function listDecisions(store: EvidenceStore, query: DecisionQuery = {}): Promise<StoredDecision[]> {
  const entries = await store.readEntries({
    kind: DECISION_ENTRY_KINDS.decision,
    ...(query.proposition === undefined ? {} : { subject: query.proposition }),
    ...(query.afterIndex === undefined ? {} : { afterIndex: query.afterIndex }),
    limit: query.limit ?? 1000,
  });
  return entries.map(storedDecision).filter((d): d is StoredDecision => d !== undefined);
}

/** A decision with what happened to it afterwards: its confirmation, execution claim and outcome. */
export interface DecisionHistory {
  decision: StoredDecision;
  confirmation: LedgerEntry | null;
  execution: LedgerEntry | null;
  outcome: LedgerEntry | null;
}

/** The decision and the entries recorded about it since. @throws {DecisionError} `EWP_REFUSE_DECISION_UNKNOWN` */
export async function decisionHistory(store: EvidenceStore, decisionId: string): Promise<DecisionHistory> {
  const decision = await readDecision(store, decisionId);
  const one = async (kind: string) => (await store.readEntries({ kind, id: decisionId, limit: 1 }))[0] ?? null;
  return {
    decision,
    confirmation: await one(DECISION_ENTRY_KINDS.confirmation),
    execution: await one(DECISION_ENTRY_KINDS.execution),
    outcome: await one(DECISION_ENTRY_KINDS.outcome),
  };
}

/**
 * Verifies a recorded decision from the ledger alone: reads the snapshots it consulted and
 * re-derives every receipt digest, the rule and the decision (docs/spec/receipts.md §12.6). A signed record is
 * checked against the keys the ledger's `key.state` entries register, or `options.verifier`.
 * @throws {DecisionError} `EWP_REFUSE_DECISION_UNKNOWN`
 */
export async function verifyDecision(store: EvidenceStore, decisionId: string, options: { verifier?: SignatureVerifier } = {}): Promise<DecisionVerification> {
  const stored = await readDecision(store, decisionId);
  const snapshots = new Map<string, EvidenceView | undefined>();
  const consulted = Array.isArray(stored.record?.consulted) ? stored.record.consulted : [];
  for (const c of consulted) {
    if (typeof c?.proposition_id !== 'string' || typeof c.view_id !== 'string') continue;
    snapshots.set(`${c.proposition_id}\u0000${c.view_id}`, await store.get(c.proposition_id, c.view_id));
  }
  const verifier = options.verifier ?? (stored.signature === null ? undefined : await ledgerKeyVerifier(store));
  return verifyDecisionRecord(decisionId, stored.record, (pid, vid) => snapshots.get(`${pid}\u0000${vid}`), {
    signature: stored.signature,
    ...(verifier === undefined ? {} : { verifier }),
  });
}

/** One line of a decision listing: what was decided on which propositions, and whether a recovery gate held it. */
export interface DecisionSummary {
  decision_id: string;
  chain_index: number;
  action_id: string;
  decision: string;
  may_act: string;
  rule: string;
  propositions: string[];
  evaluated_at: string;
  held: boolean;
}

/** The listing line of a stored decision (the CLI and the MCP tool print the same). */
export function decisionSummary(d: StoredDecision): DecisionSummary {
  const r = d.record;
  return {
    decision_id: d.decision_id,
    chain_index: d.chain_index,
    action_id: r.action.action_id,
    decision: r.decision,
    may_act: r.may_act,
    rule: r.rule,
    propositions: [...r.consulted.map((c) => c.proposition_id), ...r.unsupported],
    evaluated_at: r.evaluated_at,
    held: r.recovery !== null && r.recovery.decision !== 'MAY_ACT',
  };
}
