import { domainDigest } from '@ewp/canonical';
import {
  type Action,
  type Decision,
  type EvidenceView,
  PROTOCOL_VERSION,
  type Risk,
  type RiskPolicy,
  decodeView,
  gateRuleFor,
  normalizeWarrantView,
  warrantNow,
} from '@ewp/core';
import { type ReceiptSigner, type SignatureCheck, type SignatureVerifier, type SignedEnvelope, signPayload, verifyEnvelope } from '../signing/envelope.js';
import { type WarrantReceipt, verifyWarrantReceipt, warrantReceiptDigest } from '../warrant/warrant-receipt.js';
import { effectiveDecision, minDecision } from './effective-decision.js';

/** The action a decision gated, as `mayAct` read it (defaults filled in). */
export interface DecisionAction {
  action_id: string;
  kind: string;
  risk: Risk;
  reversible: boolean;
}

/** The risk policy a decision was made under: its identity and both flags (defaults filled in). */
export interface DecisionRiskPolicy {
  policy_id: string;
  version: string;
  high_requires_accepted: boolean;
  high_requires_no_open_conflict: boolean;
}

/** One proposition whose warrant a decision consulted, with the receipt that binds it. */
export interface ConsultedWarrant {
  proposition_id: string;
  view_id: string;
  receipt: WarrantReceipt;
  /** `digest(receipt, "ewp-warrant-receipt")`. */
  receipt_digest: string;
  /** `mayAct` on this warrant alone, and the rule row that decided it. */
  may_act: Decision;
  rule: string;
}

/** A snapshot a decision rests on: each consulted proposition and each proposition it was derived from. */
export interface DecisionBasis {
  proposition_id: string;
  view_id: string;
}

/** The recovery gate applied to a decision (docs/spec/receipts.md §12.6): why it held, and what must be re-evaluated. */
export interface RecoveryGateRecord {
  /** The bound it put on `mayAct` (MAY_ACT when nothing was invalidated). */
  decision: Decision;
  /** The earlier decision on the same action whose evidence was re-checked, if any. */
  baseline_decision_id: string | null;
  /** Proposition id → invalidation reason (`evidence_refuted`, `evidence_missing`, `evidence_changed`, `depends_on_invalidated:…`). */
  invalidated: Record<string, string>;
  /** The propositions to re-evaluate before the action may proceed (path-specific, dependency order). */
  requirements: string[];
}

/**
 * A gate decision as recorded in the ledger (docs/spec/receipts.md §12.6): what was asked, what was consulted, which
 * rule decided, under which policy and at which T. Every field is EBCJ-1 (no floats), so the record
 * hashes and signs like a receipt.
 */
export interface DecisionRecord {
  record_version: '1';
  receipt_version: '1';
  canonicalization_version: 'EBCJ-1';
  protocol_version: string;
  /** Which gate decided: `ai-sdk`, `langchain`, `mcp`, `cli`, `library`, … */
  gate: string;
  /** Identifies the call (a tool call id, or a random id): two calls never share a decision. */
  call_id: string;
  action: DecisionAction;
  risk_policy: DecisionRiskPolicy;
  evaluated_at: string;
  /** Propositions asked about that had no stored snapshot (the decision is then DENY). */
  unsupported: string[];
  consulted: ConsultedWarrant[];
  basis: DecisionBasis[];
  /** `mayAct` over the consulted warrants: the least permissive, DENY when a proposition had no snapshot. */
  may_act: Decision;
  /** The rule id that decided `may_act` (`no_evidence` when a proposition had no snapshot). */
  rule: string;
  recovery: RecoveryGateRecord | null;
  /** The effective decision: min(`may_act`, `recovery.decision`). */
  decision: Decision;
}

/** The signature of a decision record: the §5 envelope without its (repeated) record. */
export type DecisionSignature = Omit<SignedEnvelope<DecisionRecord>, 'receipt'>;

/** Rule id of a decision on a proposition with no stored snapshot. */
export const NO_EVIDENCE_RULE = 'no_evidence';

/** Signature label, so a signature over a decision never verifies as a proof or warrant receipt. */
export const SIGNED_DECISION_LABEL = 'ewp:signed-decision:EBCJ-1:';

/** The action as recorded: `mayAct`'s defaults (risk low, reversible) made explicit. */
export function decisionAction(action: Action): DecisionAction {
  return { action_id: action.action_id, kind: action.kind, risk: action.risk ?? 'low', reversible: action.reversible ?? true };
}

/** The risk policy as recorded: identity (default `action-v0.1` / `0.1.0`) and both flags (default true). */
export function decisionRiskPolicy(policy: RiskPolicy | undefined): DecisionRiskPolicy {
  return {
    policy_id: policy?.policy_id ?? 'action-v0.1',
    version: policy?.version ?? '0.1.0',
    high_requires_accepted: policy?.high_requires_accepted ?? true,
    high_requires_no_open_conflict: policy?.high_requires_no_open_conflict ?? true,
  };
}

/** `dec_` + 32 hex digits of `digest(record, "ewp-decision")`: the id names exactly this record. */
export function decisionId(record: DecisionRecord): string {
  return `dec_${domainDigest('ewp-decision', record as unknown as Record<string, unknown>).slice(0, 32)}`;
}

/** What one consulted proposition contributes: its receipt, and `mayAct` with its rule. */
export function consultedWarrant(
  receipt: WarrantReceipt,
  warrant: Parameters<typeof gateRuleFor>[0],
  action: DecisionAction,
  riskPolicy: DecisionRiskPolicy,
): ConsultedWarrant {
  const rule = gateRuleFor(warrant, action, riskPolicy);
  return {
    proposition_id: receipt.proposition_id,
    view_id: receipt.view_id,
    receipt,
    receipt_digest: warrantReceiptDigest(receipt),
    may_act: rule.decision,
    rule: rule.id,
  };
}

/** `may_act` and `rule` over the consulted warrants: the least permissive wins, the first such in order. */
export function combinedMayAct(consulted: readonly ConsultedWarrant[], unsupported: readonly string[]): { may_act: Decision; rule: string } {
  if (unsupported.length > 0 || consulted.length === 0) return { may_act: 'DENY', rule: NO_EVIDENCE_RULE };
  let best = consulted[0] as ConsultedWarrant;
  for (const c of consulted) if (minDecision(c.may_act, best.may_act) !== best.may_act) best = c;
  return { may_act: best.may_act, rule: best.rule };
}

/** Everything a decision record is built from. */
export interface DecisionRecordInput {
  gate: string;
  call_id: string;
  action: DecisionAction;
  risk_policy: DecisionRiskPolicy;
  evaluated_at: string;
  unsupported: readonly string[];
  consulted: readonly ConsultedWarrant[];
  basis: readonly DecisionBasis[];
  recovery: RecoveryGateRecord | null;
}

/** Builds the record: `may_act` from the consulted warrants, `decision` = min(`may_act`, recovery gate). */
export function buildDecisionRecord(input: DecisionRecordInput): DecisionRecord {
  const { may_act, rule } = combinedMayAct(input.consulted, input.unsupported);
  return {
    record_version: '1',
    receipt_version: '1',
    canonicalization_version: 'EBCJ-1',
    protocol_version: PROTOCOL_VERSION,
    gate: input.gate,
    call_id: input.call_id,
    action: input.action,
    risk_policy: input.risk_policy,
    evaluated_at: input.evaluated_at,
    unsupported: [...input.unsupported],
    consulted: [...input.consulted],
    basis: [...input.basis],
    may_act,
    rule,
    recovery: input.recovery,
    decision: effectiveDecision(may_act, input.recovery?.decision ?? null),
  };
}

const asPayload = (r: DecisionRecord) => r as unknown as Record<string, unknown>;

/** Signs a decision record with the §5 envelope under its own label. @throws {SigningError} */
export function signDecisionRecord(record: DecisionRecord, signer: ReceiptSigner): DecisionSignature {
  const { receipt: _record, ...signature } = signPayload(SIGNED_DECISION_LABEL, record, asPayload(record), signer);
  return signature;
}

/** The outcome of {@link verifyDecisionRecord}; `ok` only when every check holds. */
export interface DecisionVerification {
  ok: boolean;
  /** VERIFIED (no signature checked or none present), SIGNATURE_VERIFIED / a signature status, or the first failure. */
  status: 'VERIFIED' | 'INVALID_RECORD' | 'ID_MISMATCH' | 'MISSING_SNAPSHOT' | 'RECEIPT_MISMATCH' | 'DECISION_MISMATCH' | SignatureCheck['status'];
  reason: string;
  /** Receipt digests re-derived from the stored snapshots, by proposition id. */
  receipt_digests: Record<string, string>;
  signature: SignatureCheck | null;
}

const DECISIONS = new Set<string>(['MAY_ACT', 'REQUIRE_CONFIRMATION', 'DENY']);
const isStr = (v: unknown): v is string => typeof v === 'string';
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A structural check of a stored record; the first problem's path, or null when it has the shape. */
export function decisionRecordProblem(value: unknown): string | null {
  if (!isObj(value)) return '$';
  for (const k of ['record_version', 'receipt_version', 'canonicalization_version', 'protocol_version', 'gate', 'call_id', 'evaluated_at', 'rule']) {
    if (!isStr(value[k])) return `$.${k}`;
  }
  if (value.record_version !== '1' || value.receipt_version !== '1' || value.canonicalization_version !== 'EBCJ-1') return '$.record_version';
  for (const k of ['may_act', 'decision']) if (!DECISIONS.has(value[k] as string)) return `$.${k}`;
  const a = value.action;
  if (!isObj(a) || !isStr(a.action_id) || !isStr(a.kind) || !isStr(a.risk) || typeof a.reversible !== 'boolean') return '$.action';
  const p = value.risk_policy;
  if (
    !isObj(p) ||
    !isStr(p.policy_id) ||
    !isStr(p.version) ||
    typeof p.high_requires_accepted !== 'boolean' ||
    typeof p.high_requires_no_open_conflict !== 'boolean'
  ) {
    return '$.risk_policy';
  }
  if (!Array.isArray(value.unsupported) || !value.unsupported.every(isStr)) return '$.unsupported';
  if (!Array.isArray(value.consulted)) return '$.consulted';
  for (const [i, c] of value.consulted.entries()) {
    if (
      !isObj(c) ||
      !isStr(c.proposition_id) ||
      !isStr(c.view_id) ||
      !isObj(c.receipt) ||
      !isStr(c.receipt_digest) ||
      !DECISIONS.has(c.may_act as string) ||
      !isStr(c.rule)
    ) {
      return `$.consulted[${i}]`;
    }
  }
  if (!Array.isArray(value.basis)) return '$.basis';
  for (const [i, b] of value.basis.entries()) if (!isObj(b) || !isStr(b.proposition_id) || !isStr(b.view_id)) return `$.basis[${i}]`;
  const r = value.recovery;
  if (r !== null && (!isObj(r) || !DECISIONS.has(r.decision as string) || !isObj(r.invalidated) || !Array.isArray(r.requirements))) return '$.recovery';
  return null;
}

/**
 * Verifies a recorded decision offline, from the ledger alone (docs/spec/receipts.md §12.6): the id names the record;
 * every consulted receipt re-derives from its stored snapshot (view digest, `warrantNow` at the
 * receipt's policy and T, warrant digest); `mayAct` on each re-derived warrant gives the recorded
 * rule and decision; the effective decision is min(`may_act`, recovery gate). With a verifier, a
 * signature must verify too (an unsigned record is then UNSIGNED). Never throws: it fails closed.
 * @param snapshot the stored snapshot `(proposition_id, view_id)`, or undefined when the ledger lacks it.
 */
export function verifyDecisionRecord(
  id: string,
  value: unknown,
  snapshot: (propositionId: string, viewId: string) => EvidenceView | undefined,
  options: { signature?: DecisionSignature | null; verifier?: SignatureVerifier } = {},
): DecisionVerification {
  const digests: Record<string, string> = {};
  const fail = (status: DecisionVerification['status'], reason: string): DecisionVerification => ({
    ok: false,
    status,
    reason,
    receipt_digests: digests,
    signature: null,
  });
  const problem = decisionRecordProblem(value);
  if (problem !== null) return fail('INVALID_RECORD', `the record is not a decision record (at ${problem})`);
  const record = value as unknown as DecisionRecord;
  if (decisionId(record) !== id) return fail('ID_MISMATCH', `the record does not hash to its id ${id}`);
  const rederived: ConsultedWarrant[] = [];
  for (const c of record.consulted) {
    const view = snapshot(c.proposition_id, c.view_id);
    if (view === undefined) return fail('MISSING_SNAPSHOT', `the ledger holds no snapshot ${c.view_id} of ${c.proposition_id}`);
    const check = verifyWarrantReceipt(c.receipt, view);
    if (!check.ok || check.expected === null) return fail('RECEIPT_MISMATCH', `${c.proposition_id}: ${check.reason}`);
    const digest = warrantReceiptDigest(check.expected);
    digests[c.proposition_id] = digest;
    if (digest !== c.receipt_digest) return fail('RECEIPT_MISMATCH', `${c.proposition_id}: the receipt digest does not match its receipt`);
    let again: ConsultedWarrant;
    try {
      const policy = { policy_id: c.receipt.policy_id, version: c.receipt.policy_version };
      const warrant = normalizeWarrantView(warrantNow(decodeView(view), policy, c.receipt.evaluated_at));
      again = consultedWarrant(check.expected, warrant, record.action, record.risk_policy);
    } catch (error) {
      return fail('DECISION_MISMATCH', `${c.proposition_id}: mayAct could not be re-run: ${(error as Error).message}`);
    }
    if (again.may_act !== c.may_act || again.rule !== c.rule) {
      return fail('DECISION_MISMATCH', `${c.proposition_id}: mayAct re-derives ${again.may_act} (${again.rule}), the record says ${c.may_act} (${c.rule})`);
    }
    rederived.push(again);
  }
  const combined = combinedMayAct(rederived, record.unsupported);
  if (combined.may_act !== record.may_act || combined.rule !== record.rule) {
    return fail('DECISION_MISMATCH', `may_act re-derives ${combined.may_act} (${combined.rule}), the record says ${record.may_act} (${record.rule})`);
  }
  if (effectiveDecision(record.may_act, record.recovery?.decision ?? null) !== record.decision) {
    return fail('DECISION_MISMATCH', 'the decision is not the minimum of may_act and the recovery gate');
  }
  if (options.verifier === undefined) {
    return {
      ok: true,
      status: 'VERIFIED',
      reason: 'receipts, rule and decision re-derived from the stored snapshots',
      receipt_digests: digests,
      signature: null,
    };
  }
  const item = options.signature == null ? record : { receipt: record, ...options.signature };
  const signature = verifyEnvelope(
    SIGNED_DECISION_LABEL,
    item,
    (x: unknown): x is SignedEnvelope<DecisionRecord> => isObj(x) && 'receipt' in x && 'signature' in x,
    asPayload,
    () => true, // bound above: the id and every receipt were re-derived
    options.verifier,
  );
  return { ok: signature.verified, status: signature.status, reason: signature.reason, receipt_digests: digests, signature };
}

export type { SignatureCheck };
