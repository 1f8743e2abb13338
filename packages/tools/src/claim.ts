/**
 * Claims and observations, the way agents produce evidence: an action depends on a claim ("server01
 * is healthy"), and a tool's result is an observation for or against it. A claim is a proposition of
 * its own, named by its words (`claim:<hash>`), whose snapshot holds only the observations recorded
 * on it: nobody asserts it, so what the model says never lifts it (a claim with only refutations is
 * UNACCEPTED, one with support and refutation is in conflict), and the gate and the recorder name the
 * same proposition without anyone writing an id. The observation's source is the tool that produced
 * it, bound by the binding: a model never names it, so it cannot pass its own conclusion off as observed.
 */
import { domainDigest, sha256Hex } from '@ewp/canonical';
import { deriveViewId, type EvidenceItem, type EvidenceView, emptyView, InvalidArgumentError } from '@ewp/core';
import { type EvidenceStore, MissingViewError, type PutResult } from '@ewp/ledger';
import { isSourceName } from './source-name.js';

/** Longest observation text kept from a tool's result; the rest is cut (the record says so). */
const MAX_OBSERVATION_TEXT = 4096;

/** Where a claim lives: its project scope (the same words in two projects are two claims). */
export interface ClaimScope {
  /** Project scope of the claim. Default: global. */
  project?: string | null | undefined;
}

/** The proposition a claim is stored as: `claim:` and 32 hex digits of the digest of its words and project. */
export function claimProposition(claim: string, scope: ClaimScope = {}): string {
  return `claim:${domainDigest('ewp-claim', { project: scope.project ?? null, text: claim }).slice(0, 32)}`;
}

/** One tool result to record against a claim. */
export interface Observation extends ClaimScope {
  store: EvidenceStore;
  /** The claim the result speaks to, in words. */
  claim: string;
  /** The tool that produced the result: the observation's source is `tool:<name>`. */
  tool: string;
  /** The tool's result (JSON-encoded into the observation's text, at most 4 KiB). */
  result: unknown;
  /** `true`: the result supports the claim; `false`: it refutes it. */
  supports: boolean;
  /** The clock. Default `() => new Date()`. */
  now?: (() => Date) | undefined;
}

/** What {@link recordObservation} wrote. */
export interface RecordedObservation {
  claim: string;
  /** The claim's proposition: what a gate on the claim evaluates. */
  propositionId: string;
  /** The evidence id of the observation in the claim's snapshot. */
  observation: string;
  polarity: 'supports' | 'opposes';
  /** The tool's source name (`tool:<name>`). */
  source: string;
  /** False when the same result of the same tool was already recorded on the claim (it is one observation, not new evidence). */
  stored: boolean;
  /** The claim's snapshot after the write. */
  viewId: string;
}

/** The text of a tool result as an observation: the tool's name and its JSON result, cut to a bound. */
function observationText(tool: string, result: unknown): string {
  let json: string;
  try {
    json = typeof result === 'string' ? result : (JSON.stringify(result) ?? String(result));
  } catch {
    json = String(result);
  }
  const text = `${tool} returned ${json}`;
  return text.length <= MAX_OBSERVATION_TEXT ? text : `${text.slice(0, MAX_OBSERVATION_TEXT)}… (cut)`;
}

/** The claim's first snapshot: no assertion, the observation, and the claim's words kept for readers (never evaluated). */
function firstView(propositionId: string, claim: string, project: string | null, item: EvidenceItem): EvidenceView {
  return { ...emptyView(propositionId), evidence: [item], adapter_meta: { claim, project } };
}

/**
 * Record a tool's result as an observation for or against a claim: an evidence item of source
 * `tool:<name>` (origin `tool`) in the claim's snapshot, the first one created on the first
 * observation. Idempotent: the same result of the same tool with the same polarity adds nothing.
 * Safe with concurrent writers in any number of processes (the store's extend is atomic, and a
 * racing first snapshot is re-extended).
 * @throws {InvalidArgumentError} naming the field: an empty claim, a tool name that is no source name.
 */
export async function recordObservation(o: Observation): Promise<RecordedObservation> {
  if (typeof o.claim !== 'string' || o.claim.trim() === '') throw new InvalidArgumentError('claim', 'must be the claim in words (a non-empty string)');
  const source = `tool:${o.tool}`;
  if (typeof o.tool !== 'string' || !isSourceName(source)) {
    throw new InvalidArgumentError('tool', 'must be a tool name ([A-Za-z0-9][A-Za-z0-9._:@+-]*, at most 123 characters)');
  }
  if (typeof o.supports !== 'boolean') throw new InvalidArgumentError('supports', 'must be true (the result supports the claim) or false (it refutes it)');
  const project = o.project ?? null;
  const propositionId = claimProposition(o.claim, { project });
  const polarity = o.supports ? 'supports' : 'opposes';
  const content = observationText(o.tool, o.result);
  const contentHash = sha256Hex(content);
  const id = domainDigest('ewp-claim-observation', { proposition_id: propositionId, source, polarity, content_hash: contentHash }).slice(0, 32);
  const observedAt = (o.now ?? (() => new Date()))().toISOString();
  const item: EvidenceItem = {
    evidence_id: `obs:${id}`,
    proposition_id: propositionId,
    polarity,
    source: {
      source_id: `${source}@${id}`,
      lineage_id: source,
      origin_type: 'tool',
      origin_locator: source,
      snapshot_id: id,
      content_hash: `sha256:${contentHash}`,
      observed_at: observedAt,
      extractor_id: null,
      parent_source_id: null,
    },
    content,
    observed_at: observedAt,
  };
  const recorded = { claim: o.claim, propositionId, observation: item.evidence_id, polarity, source } as const;
  const before = await o.store.get(propositionId);
  // The same observation recorded before (at another instant) is that one, not a second.
  if (before !== undefined && before.evidence.some((e) => e.evidence_id === item.evidence_id)) return { ...recorded, stored: false, viewId: before.view_id };
  const written = before === undefined ? await createThenExtend(o.store, o.claim, project, item) : await extendOrCreate(o.store, o.claim, project, item);
  return { ...recorded, stored: written.status === 'stored', viewId: written.view_id };
}

async function extendOrCreate(store: EvidenceStore, claim: string, project: string | null, item: EvidenceItem): Promise<PutResult> {
  try {
    return await store.extend(item.proposition_id, [{ kind: 'evidence', record: item }]);
  } catch (error) {
    if (!MissingViewError.isInstance(error)) throw error;
    return createThenExtend(store, claim, project, item);
  }
}

async function createThenExtend(store: EvidenceStore, claim: string, project: string | null, item: EvidenceItem): Promise<PutResult> {
  const view = firstView(item.proposition_id, claim, project, item);
  const created = await store.put({ ...view, view_id: deriveViewId(view) });
  // A writer racing on the first snapshot may have replaced ours: extending again keeps both (a present record is skipped).
  const extended = await store.extend(item.proposition_id, [{ kind: 'evidence', record: item }]);
  return created.status === 'stored' ? { ...extended, status: 'stored' } : extended;
}
