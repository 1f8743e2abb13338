/**
 * The memory layer's writes: store (with its supports), link, refute and reclass, each checked whole
 * (the support rule: class, self-link, project scope; a link of the other polarity; the echo check)
 * before anything is written, and each written with its events in one commit of the store.
 */
import type { BatchWrite, LedgerEntryInput, LedgerRecord } from '@ewp/ledger';
import { checkEcho } from './echo-check.js';
import { type EpistemicClass, isClaimClass, isEpistemicClass, maySupport } from './epistemic-class.js';
import { badInput, MemoryError } from './errors.js';
import { type MemoryState, ownOf, stateOf } from './memory-counts.js';
import { type LinkEventBody, linkEvent, reclassEvent, storeEvent, tenThousandths } from './memory-events.js';
import type { Indexed } from './memory-index.js';
import { checkHashList, checkProject, checkText } from './memory-input.js';
import { type MemoryLayer, timeOf } from './memory-layer.js';
import {
  defaultOrigin,
  isEndogenousOrigin,
  isSelfSupport,
  linkEvidence,
  linkRecordId,
  type MemoryFacts,
  memoryHash,
  memoryView,
  ownEvidence,
  propositionOf,
} from './memory-records.js';

/** What `store` takes. */
export interface StoreMemoryInput {
  text: string;
  class: EpistemicClass;
  /** Project scope; absent or `null` for a global memory. Supports never cross scopes. */
  project?: string | null;
  /** Where it came from. Default `agent`. */
  source?: string;
  /** Memories this one supports (it must be an observation or evidence). */
  supports?: readonly string[];
  /** Memories this one was derived from (lineage, never support). */
  derived_from?: readonly string[];
  /** The EWP origin of its record; by default by class (`observation`, `derived`, `model_introspection`). */
  origin_type?: string;
  /** When it was observed or asserted. Default: now. */
  observed_at?: string;
}

/** `store`'s answer. */
export interface StoreMemoryResult extends MemoryState {
  status: 'stored' | 'unchanged';
  links: LinkResult[];
}

/** `link`'s and `refute`'s answer. */
export interface LinkResult {
  support: string;
  target: string;
  polarity: 'supports' | 'opposes';
  status: 'linked' | 'unchanged';
  echo: boolean;
  echo_of: string | null;
  /** The support comes from the target's own source or lineage (or that of what it was derived from): it counts for nothing. */
  self_support: boolean;
  /** Highest similarity found, 0–1. */
  similarity: number;
  /** The target's state after the link. */
  target_confidence: number;
  target_distinct_sources: number;
}

/** A link decided and not yet written: what its answer says, and what to write (none when it is already there). */
interface LinkPlan {
  support: string;
  target: string;
  polarity: 'supports' | 'opposes';
  echo: boolean;
  echo_of: string | null;
  self_support: boolean;
  best: number;
  write?: { records: LedgerRecord[]; body: LinkEventBody };
}

/**
 * Store a memory with its class; with `supports`, link it as support of each (it must be an
 * observation or evidence, in the same project). Storing the same text from the same source in the same
 * project again is a no-op; under another class it is refused (use `reclass`).
 * Everything is checked before anything is written.
 */
export async function storeMemory(layer: MemoryLayer, input: StoreMemoryInput): Promise<StoreMemoryResult> {
  if (typeof input !== 'object' || input === null) throw badInput('$', 'must be an object {text, class, ...}');
  const text = checkText(input.text, 'text');
  if (!isEpistemicClass(input.class)) throw badInput('class', 'must be one of observation, evidence, inference, hypothesis');
  const cls = input.class;
  const project = checkProject(input.project, 'project');
  const source = input.source === undefined ? 'agent' : checkText(input.source, 'source', 256);
  const supports = checkHashList(input.supports, 'supports');
  const derivedFrom = checkHashList(input.derived_from, 'derived_from');
  const origin = input.origin_type === undefined ? defaultOrigin(cls) : checkText(input.origin_type, 'origin_type', 64);
  if (isClaimClass(cls) !== isEndogenousOrigin(origin)) {
    throw badInput(
      'origin_type',
      isClaimClass(cls) ? `an ${cls} is the agent's own: its origin must be endogenous` : `an ${cls} needs an exogenous origin, not ${origin}`,
    );
  }
  const at = timeOf(layer, input.observed_at, 'observed_at');
  await layer.index.refresh();
  const hash = memoryHash({ text, project, source });
  const existing = layer.index.get(hash);
  if (existing !== undefined && existing.current !== cls) {
    throw new MemoryError('EWP_REFUSE_MEMORY_CLASS_CONFLICT', `memory ${hash} is stored as ${existing.current}; change it with reclass`, {
      path: 'class',
      memory: hash,
    });
  }
  for (const [i, h] of derivedFrom.entries()) layer.index.known(h, `derived_from[${i}]`);
  const facts: MemoryFacts = existing?.facts ?? {
    hash,
    class: cls,
    project,
    source,
    text,
    origin_type: origin,
    observed_at: at.text,
    derived_from: derivedFrom,
  };
  for (let i = 0; i < supports.length; i += 1) checkLink(layer, facts, cls, supports[i]!, 'supports', `supports[${i}]`);
  // Every link is decided (views read, conflicts refused by name, echo checked) before anything is
  // written; then the STORE and every LINK are one commit of the store: all of them, or none.
  const plans: LinkPlan[] = [];
  for (let i = 0; i < supports.length; i += 1) plans.push(await planLink(layer, facts, supports[i]!, 'supports', `supports[${i}]`));
  const writes: BatchWrite[] = [];
  const entries: LedgerEntryInput[] = [];
  if (existing === undefined) {
    writes.push({ put: memoryView(facts) });
    entries.push(storeEvent(facts));
  }
  for (const p of plans) {
    if (p.write === undefined) continue;
    writes.push({ extend: propositionOf(p.target), records: p.write.records });
    entries.push(linkEvent(p.write.body));
  }
  let status: 'stored' | 'unchanged' = 'unchanged';
  if (writes.length > 0) {
    const results = await layer.evidenceStore.writeBatch(writes, { entries });
    if (existing === undefined) status = results[0]!.status;
    for (const p of plans) layer.index.dropView(p.target);
    await layer.index.refresh();
  }
  const links: LinkResult[] = [];
  for (const p of plans) links.push(await linkResult(layer, p));
  return { ...(await stateOf(layer, hash, timeOf(layer, undefined))), status, links };
}

/** The support rule, checked before any write: class, self-link, project scope. */
function checkLink(
  layer: MemoryLayer,
  support: MemoryFacts,
  supportClass: EpistemicClass,
  target: string,
  polarity: 'supports' | 'opposes',
  path: string,
): Indexed {
  const verb = polarity === 'supports' ? 'support' : 'refute';
  if (!maySupport(supportClass)) {
    throw new MemoryError(
      'EWP_REFUSE_MEMORY_SUPPORT_CLASS',
      `memory ${support.hash} is an ${supportClass}: only observations and evidence may ${verb} a memory`,
      { path, memory: support.hash },
    );
  }
  if (target === support.hash) throw new MemoryError('EWP_REFUSE_MEMORY_SELF_LINK', `memory ${target} cannot ${verb} itself`, { path, memory: target });
  const t = layer.index.known(target, path);
  if (t.facts.project !== support.project) {
    const scope = (p: string | null) => (p === null ? 'the global scope' : `project ${JSON.stringify(p)}`);
    throw new MemoryError(
      'EWP_REFUSE_MEMORY_PROJECT_SCOPE',
      `memory ${support.hash} is in ${scope(support.project)}, memory ${target} in ${scope(t.facts.project)}: supports stay inside one project`,
      { path, memory: support.hash },
    );
  }
  return t;
}

/**
 * Link `support` (an observation or evidence) as support (`supports`) or refutation (`opposes`) of
 * `target`, with the echo check.
 */
export async function linkMemories(layer: MemoryLayer, support: string, target: string, polarity: 'supports' | 'opposes'): Promise<LinkResult> {
  checkText(support, 'support', 256);
  checkText(target, 'target', 256);
  await layer.index.refresh();
  const s = layer.index.known(support, 'support');
  checkLink(layer, s.facts, s.current, target, polarity, 'support');
  const plan = await planLink(layer, s.facts, target, polarity, 'support');
  if (plan.write !== undefined) {
    await layer.evidenceStore.extend(propositionOf(target), plan.write.records, { entries: [linkEvent(plan.write.body)] });
    layer.index.dropView(target);
    await layer.index.refresh();
  }
  return linkResult(layer, plan);
}

/**
 * Decide one link without writing it: the target's view is read, a link of the other polarity is
 * refused (naming `path`), the echo check runs, and the record and event to write are made (none when
 * the link is already there).
 */
async function planLink(layer: MemoryLayer, support: MemoryFacts, target: string, polarity: 'supports' | 'opposes', path: string): Promise<LinkPlan> {
  const view = await layer.evidenceStore.get(propositionOf(target));
  if (view === undefined) throw new MemoryError('EWP_REFUSE_MEMORY_UNKNOWN', `memory ${target} has no stored view`, { path, memory: target });
  const id = linkRecordId(support.hash, polarity);
  const other = linkRecordId(support.hash, polarity === 'supports' ? 'opposes' : 'supports');
  if (view.evidence.some((e) => e.evidence_id === other)) {
    throw new MemoryError(
      'EWP_REFUSE_MEMORY_LINK_CONFLICT',
      `memory ${support.hash} already ${polarity === 'supports' ? 'refutes' : 'supports'} memory ${target}`,
      { path, memory: support.hash },
    );
  }
  const own = ownOf(layer, layer.index.known(target, path));
  const done = view.evidence.find((e) => e.evidence_id === id);
  if (done !== undefined) {
    const edge = view.lineage.find((l) => l.kind === 'derived_from' && l.from_id === id);
    return {
      support: support.hash,
      target,
      polarity,
      echo: edge !== undefined,
      echo_of: edge?.to_id ?? null,
      self_support: isSelfSupport(target, own, done),
      best: 0,
    };
  }
  const decision = await checkEcho(view, support, polarity, layer.similarity, layer.config);
  const record = linkEvidence(support, target, polarity, decision.lineage_id);
  // Decided by source and lineage alone (no similarity): the records decide it again on every read.
  const selfSupport = isSelfSupport(target, own, record);
  const records: LedgerRecord[] = [{ kind: 'evidence', record }];
  if (decision.echo_of !== null) records.push({ kind: 'lineage', record: { from_id: id, to_id: decision.echo_of, kind: 'derived_from' } });
  const body: LinkEventBody = {
    support: support.hash,
    target,
    polarity,
    echo: decision.echo,
    echo_of: decision.echo_of,
    self_support: selfSupport,
    lineage_id: decision.lineage_id,
    measure: layer.similarity.name,
    nearest: decision.nearest,
    threshold: tenThousandths(layer.config.sim_threshold),
  };
  return {
    support: support.hash,
    target,
    polarity,
    echo: decision.echo,
    echo_of: decision.echo_of,
    self_support: selfSupport,
    best: (decision.nearest[0]?.similarity ?? 0) / 10_000,
    write: { records, body },
  };
}

/** A planned link's answer, once written (or found written): with the target's state after it. */
async function linkResult(layer: MemoryLayer, p: LinkPlan): Promise<LinkResult> {
  const state = await stateOf(layer, p.target, timeOf(layer, undefined));
  return {
    support: p.support,
    target: p.target,
    polarity: p.polarity,
    status: p.write === undefined ? 'unchanged' : 'linked',
    echo: p.echo,
    echo_of: p.echo_of,
    self_support: p.self_support,
    similarity: p.best,
    target_confidence: state.confidence,
    target_distinct_sources: state.distinct_sources,
  };
}

/**
 * Reclassify a memory: a RECLASS event, never an edit. Made an observation or evidence, a memory first
 * stored as a claim gains its own supporting record (in the same write); made an inference or
 * hypothesis, its records stop counting as support anywhere.
 */
export async function reclassMemory(
  layer: MemoryLayer,
  hash: string,
  to: EpistemicClass,
  reason?: string,
): Promise<{ hash: string; from: EpistemicClass; to: EpistemicClass; status: 'reclassified' | 'unchanged' }> {
  checkText(hash, 'hash', 256);
  if (!isEpistemicClass(to)) throw badInput('to', 'must be one of observation, evidence, inference, hypothesis');
  const why = reason === undefined ? null : checkText(reason, 'reason', 4096);
  await layer.index.refresh();
  const m = layer.index.known(hash, 'hash');
  const from = m.current;
  if (from === to) return { hash, from, to, status: 'unchanged' };
  const entry = reclassEvent({ memory: hash, from, to, reason: why }, m.reclasses + 1);
  if (maySupport(to) && isClaimClass(m.facts.class)) {
    await layer.evidenceStore.extend(propositionOf(hash), [{ kind: 'evidence', record: ownEvidence(m.facts) }], { entries: [entry] });
  } else {
    await layer.evidenceStore.appendEntries([entry]);
  }
  await layer.index.refresh();
  return { hash, from, to, status: 'reclassified' };
}
