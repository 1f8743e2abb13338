/**
 * What `extend` appends: the records decoded through the kernel, then merged into the latest
 * snapshot under the identity rules of docs/spec/store-contract.md §1.5. Shared by every store.
 */
import {
  type Assertion,
  type Conflict,
  decodeView,
  type EvidenceItem,
  type EvidenceView,
  InvalidArgumentError,
  type LineageEdge,
  type VerificationCheck,
} from '@ewp/core';
import { ImmutableRecordError } from './errors.js';
import type { LedgerRecord } from './evidence-store.js';
import { assertionText, checkText, evidenceText, sourceText } from './snapshot-layout.js';

/** Records given to `extend`, decoded and grouped by kind. */
export interface Delta {
  assertions: Assertion[];
  evidence: EvidenceItem[];
  checks: VerificationCheck[];
  conflicts: Conflict[];
  lineage: LineageEdge[];
}

const RECORD_FIELD: Record<LedgerRecord['kind'], keyof Delta> = {
  assertion: 'assertions',
  evidence: 'evidence',
  check: 'checks',
  conflict: 'conflicts',
  lineage: 'lineage',
};

/** Decode the appended records through the kernel (as a view of their own), so bad input is refused up front. */
export function decodeDelta(propositionId: string, records: readonly LedgerRecord[]): Delta {
  if (!Array.isArray(records)) throw new InvalidArgumentError('records', 'extend needs an array of {kind, record}');
  const raw: Record<keyof Delta, unknown[]> = { assertions: [], evidence: [], checks: [], conflicts: [], lineage: [] };
  records.forEach((r, i) => {
    const field = typeof r === 'object' && r !== null ? RECORD_FIELD[(r as LedgerRecord).kind] : undefined;
    if (field === undefined) throw new InvalidArgumentError(`records[${i}].kind`, 'must be assertion, evidence, check, conflict or lineage');
    raw[field].push((r as LedgerRecord).record);
  });
  const view = decodeView({ proposition_id: propositionId, view_id: 'extend', ...raw });
  return { assertions: view.assertions, evidence: view.evidence, checks: view.checks, conflicts: view.conflicts, lineage: view.lineage };
}

/**
 * Latest snapshot + appended records. A record whose id the snapshot already holds must be identical
 * (a retried append) and is skipped; other content under that id is refused. A conflict with a known
 * id replaces its status and note (participants are checked by the ledger binding).
 */
export function appendDelta(base: EvidenceView, delta: Delta, viewId: string): Record<string, unknown> {
  const pid = base.proposition_id;
  const assertions = [...base.assertions];
  const byA = new Map(base.assertions.map((a) => [a.assertion_id, a]));
  for (const a of delta.assertions) {
    const old = byA.get(a.assertion_id);
    if (old === undefined) assertions.push(a);
    else if (assertionText(old) !== assertionText(a) || sourceText(old.source) !== sourceText(a.source))
      throw new ImmutableRecordError(pid, 'assertion', a.assertion_id);
  }
  const evidence = [...base.evidence];
  const byE = new Map(base.evidence.map((e) => [e.evidence_id, e]));
  for (const e of delta.evidence) {
    const old = byE.get(e.evidence_id);
    if (old === undefined) evidence.push(e);
    else if (evidenceText(old) !== evidenceText(e) || sourceText(old.source) !== sourceText(e.source))
      throw new ImmutableRecordError(pid, 'evidence', e.evidence_id);
  }
  const checks = [...base.checks];
  const byC = new Map(base.checks.map((c) => [c.check_id, c]));
  for (const c of delta.checks) {
    const old = byC.get(c.check_id);
    if (old === undefined) checks.push(c);
    else if (checkText(old, [...old.subjects].sort()) !== checkText(c, [...c.subjects].sort()) || sourceText(old.source) !== sourceText(c.source)) {
      throw new ImmutableRecordError(pid, 'check', c.check_id);
    }
  }
  const conflicts = [...base.conflicts];
  for (const c of delta.conflicts) {
    const i = conflicts.findIndex((x) => x.conflict_id === c.conflict_id);
    if (i === -1) conflicts.push(c);
    else conflicts[i] = c;
  }
  const lineage = [...base.lineage];
  for (const l of delta.lineage) {
    if (!lineage.some((x) => x.from_id === l.from_id && x.to_id === l.to_id && x.kind === l.kind)) lineage.push(l);
  }
  return { ...base, view_id: viewId, assertions, evidence, checks, conflicts, lineage };
}
