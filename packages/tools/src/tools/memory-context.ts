import { classifyCheck, compareInstants, type EvidenceView, lowerSubjects, parseInstant, type Verification, type WarrantView } from '@ewp/core';
import { hashOfProposition, MemoryError, type MemoryLedger, memoryLedgerFor } from '@ewp/memory';
import type { EvidenceStore } from '@ewp/ledger';
import { ToolRefusal } from '../refusal.js';
import { loadStoredView, serverTime } from '../stored-view.js';
import { evaluateStored } from '../stored-warrant.js';
import { isAbsent, readId, readText } from '../tool-arguments.js';
import type { ToolImplementation } from '../tool-context.js';

const NOTE =
  'Memory is evidence, not belief. Report the five axes as they are; say conflict=OPEN out loud and do not invent a ' +
  'reconciliation; DEGRADED means the view is incomplete. This context is computed, never stored.';

/** Each check's class at T (docs/spec/protocol.md §6.2); a check not yet available at T is `NONE`. */
function checkClasses(view: EvidenceView, evaluatedAt: string): Verification[] {
  const t = parseInstant(evaluatedAt);
  const subjects = lowerSubjects(view.subjects);
  return view.checks.map((check) => {
    const observed = parseInstant(check.observed_at);
    if (typeof t === 'string' || typeof observed === 'string' || compareInstants(observed, t) > 0) return 'NONE';
    return classifyCheck(check, subjects);
  });
}

function warningsFor(w: WarrantView, opposingHigh: string[]): string[] {
  const warnings: string[] = [];
  const axes = w.warrant;
  if (axes.conflict === 'OPEN') {
    warnings.push('conflict=OPEN: the evidence disagrees. Say so; do not invent a reconciliation.');
  }
  if (axes.sufficiency === 'DEGRADED') {
    warnings.push('sufficiency=DEGRADED: the view is incomplete (degraded, bounded retrieval or omitted sources); absence of evidence here proves nothing.');
  }
  if (axes.currency === 'STALE') warnings.push('currency=STALE: the strongest verification is older than the freshness policy.');
  if (axes.currency === 'SUPERSEDED') warnings.push('currency=SUPERSEDED: a newer proposition supersedes this one.');
  if (opposingHigh.length > 0) {
    warnings.push(
      `opposing check(s) of class ${opposingHigh.join(', ')}: verification is the strongest check, not a confirmation; a strong check opposes this proposition.`,
    );
  }
  if (axes.acceptance !== 'ACCEPTED') warnings.push(`acceptance=${axes.acceptance}: do not present this as an established fact.`);
  return warnings;
}

const PERSONA_NOTE =
  'Confidence is evidence weight from independent observations, never from recall; salience says how often it comes to mind. ' +
  'Neither changes the warrant, and an inference or hypothesis stays one however often it is recalled.';

/** For a memory of the evidence layer: its class, confidence and salience at T; `null` for any other proposition. */
async function personaOf(store: EvidenceStore, propositionId: string, evaluatedAt: string, now: () => Date) {
  const hash = hashOfProposition(propositionId);
  if (hash === undefined) return null;
  let known: Awaited<ReturnType<MemoryLedger['show']>>;
  try {
    known = await memoryLedgerFor(store, now).show(hash, evaluatedAt);
  } catch (error) {
    // A proposition named like a memory that the layer never stored.
    if (MemoryError.isInstance(error) && error.code === 'EWP_REFUSE_MEMORY_UNKNOWN') return null;
    throw error;
  }
  const { recall_count, energy, importance, promoted } = known.salience;
  return {
    memory: hash,
    class: known.class,
    confidence: known.confidence,
    support_count: known.support_count,
    refute_count: known.refute_count,
    distinct_sources: known.distinct_sources,
    salience: { recall_count, energy, importance, promoted },
    note: PERSONA_NOTE,
  };
}

/** `ewp_memory_context`: what an agent should say about a remembered proposition, with warnings. */
export const memoryContextTool: ToolImplementation<'ewp_memory_context'> = {
  async run(args, context) {
    const propositionId = readId(args, 'proposition_id', true);
    const given = args.evaluated_at;
    if (!isAbsent(given) && typeof given !== 'string') {
      throw new ToolRefusal('EWP_REFUSE_INVALID_ARGUMENTS', 'must be an ISO 8601 string', { path: '$.evaluated_at' });
    }
    const evaluatedAt = typeof given === 'string' && given !== '' ? given : serverTime(context.now);
    const query = readText(args, 'query') ?? null;
    const viewId = readId(args, 'view_id');
    const view = await loadStoredView(context.store, propositionId, viewId);
    const w = await evaluateStored(context.store, view, evaluatedAt, viewId !== undefined);
    const classes = checkClasses(view, evaluatedAt);
    const checks = view.checks.map((c, i) => ({
      check_id: c.check_id,
      method: c.method,
      result: c.result,
      observed_at: c.observed_at,
      origin_type: c.source.origin_type,
      class: classes[i] as Verification,
    }));
    const opposingHigh = [
      ...new Set(checks.filter((c) => c.result === 'opposes' && (c.class === 'EXTERNAL' || c.class === 'HUMAN')).map((c) => c.class)),
    ].sort();
    const { strength: _strength, rationale_codes: _codes, ...axes } = w.warrant;
    return {
      proposition_id: w.proposition_id,
      view_id: w.view_id,
      query,
      evaluated_at: evaluatedAt,
      warrant: axes,
      supporting_evidence_ids: w.supporting_evidence_ids,
      opposing_evidence_ids: w.opposing_evidence_ids,
      omitted_sources: w.omitted_sources,
      checks,
      independent_lineage_count: w.independent_lineage_count,
      warnings: warningsFor(w, opposingHigh),
      persona: await personaOf(context.store, w.proposition_id, evaluatedAt, context.now),
      note: NOTE,
    };
  },
};
