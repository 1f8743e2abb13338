/**
 * Claims and observations, the way agents produce evidence: an action depends on a claim ("server01
 * is healthy"), a tool's result is an observation for or against it, and what the model says is its
 * own hypothesis. A claim is the agent's hypothesis memory of that text (`mem:<hash>`), so the gate
 * and the recorder name the same proposition without anyone writing an id, and a claim the agent
 * stored itself through `memory_store` is the same memory. The observation's source is the tool that
 * produced it, bound by the binding: a model never names it, so it cannot pass its own conclusion
 * off as observed.
 */
import { InvalidArgumentError } from '@ewp/core';
import type { EvidenceStore } from '@ewp/ledger';
import { memoryHash, memoryLedgerFor, propositionOf } from '@ewp/memory';
import { isSourceName } from './memory-tool-args.js';

/** The principal whose hypothesis a claim is, unless a binding names another. */
export const CLAIM_PRINCIPAL = 'agent';

/** Longest observation text kept from a tool's result; the rest is cut (the record says so). */
const MAX_OBSERVATION_TEXT = 4096;

/** Where a claim lives: its project scope and the principal whose hypothesis it is. */
export interface ClaimScope {
  /** Project scope of the claim and of its observations. Default: global. */
  project?: string | null | undefined;
  /** The principal whose hypothesis the claim is. Default `agent`. */
  principal?: string | undefined;
}

/** The proposition a claim is stored as: the `mem:<hash>` of the principal's hypothesis of that text. */
export function claimProposition(claim: string, scope: ClaimScope = {}): string {
  return propositionOf(memoryHash({ text: claim, project: scope.project ?? null, source: scope.principal ?? CLAIM_PRINCIPAL }));
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
  /** The observation memory's hash. */
  observation: string;
  polarity: 'supports' | 'opposes';
  /** The tool's source name (`tool:<name>`). */
  source: string;
  /** False when the same result was already recorded (the same text from the same tool is one memory, not new evidence). */
  stored: boolean;
  /** The claim's confidence (0–100) after the write. */
  confidence: number;
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

/**
 * Record a tool's result as an observation for or against a claim: the claim is stored as the
 * principal's hypothesis (once), the result as an observation of source `tool:<name>`, linked as
 * support or refutation. Idempotent: the same result of the same tool adds nothing.
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
  const principal = o.principal ?? CLAIM_PRINCIPAL;
  const ledger = memoryLedgerFor(o.store, o.now ?? (() => new Date()));
  const claim = await ledger.store({ text: o.claim, class: 'hypothesis', project, source: principal });
  const observed = await ledger.store({
    text: observationText(o.tool, o.result),
    class: 'observation',
    project,
    source,
    origin_type: 'tool',
    ...(o.supports ? { supports: [claim.hash] } : {}),
  });
  const link = o.supports ? observed.links.find((l) => l.target === claim.hash) : await ledger.refute(observed.hash, claim.hash);
  return {
    claim: o.claim,
    propositionId: claim.proposition_id,
    observation: observed.hash,
    polarity: o.supports ? 'supports' : 'opposes',
    source,
    stored: observed.status === 'stored',
    confidence: link?.target_confidence ?? claim.confidence,
  };
}
