/**
 * Reading a memory and its scope out: `show` (a memory's state, promotion, salience and events),
 * `audit` (the chain verified, the memory events listed), and the persona file of a scope: checked
 * out (promoted and confirmed memories, disputed ones as disputed) and read back (an edited line is a
 * new inference, never verification).
 */
import type { ChainVerification } from '@ewp/canonical';
import type { LedgerEntry } from '@ewp/ledger';
import { MemoryError, badInput } from './errors.js';
import { isConfirmed, isDisputedMemory, type MemoryState, stateOf } from './memory-counts.js';
import { MEMORY_EVENT_NAMESPACE, storeEvent } from './memory-events.js';
import { ENTRY_PAGE } from './memory-index.js';
import { checkProject, checkText } from './memory-input.js';
import { type At, type MemoryLayer, timeOf } from './memory-layer.js';
import { defaultOrigin, type MemoryFacts, memoryHash, memoryView, propositionOf } from './memory-records.js';
import type { StoreMemoryResult } from './memory-write.js';
import { oneLine, type PersonaItem, parsePersonaFile, renderPersonaFile } from './persona-file.js';
import { emptySalience, type SalienceRecord } from './salience-store.js';

/**
 * Salience as `show` returns it, with `promoted` beside it: read from the chain's PROMO_GATE events
 * (the same as the state's own `promoted`), never from the salience store.
 */
export type ShownSalience = SalienceRecord & { promoted: boolean };

/**
 * A memory's state at T (default now): class, confidence, counts, warrant; whether it is promoted
 * (from the chain's PROMO_GATE events), its salience and its events.
 */
export async function show(
  layer: MemoryLayer,
  hash: string,
  at?: string,
): Promise<MemoryState & { promoted: boolean; salience: ShownSalience; events: LedgerEntry[] }> {
  checkText(hash, 'hash', 256);
  await layer.index.refresh();
  const state = await stateOf(layer, hash, timeOf(layer, at));
  const promoted = layer.index.known(hash, 'hash').promoted;
  const events = await layer.evidenceStore.readEntries({ kind: MEMORY_EVENT_NAMESPACE, subject: propositionOf(hash), limit: ENTRY_PAGE });
  return { ...state, promoted, salience: { ...(layer.salience.get(hash) ?? emptySalience()), promoted }, events };
}

/** Verify the store's chain (memory events included) and list a memory's events, or every memory event. */
export async function audit(layer: MemoryLayer, hash?: string): Promise<{ chain: ChainVerification; events: LedgerEntry[] }> {
  if (hash !== undefined) {
    checkText(hash, 'hash', 256);
    await layer.index.refresh();
    layer.index.known(hash, 'hash');
  }
  const chain = await layer.evidenceStore.verifyChain();
  const events = await layer.evidenceStore.readEntries({
    kind: MEMORY_EVENT_NAMESPACE,
    ...(hash === undefined ? {} : { subject: propositionOf(hash) }),
    limit: ENTRY_PAGE,
  });
  return { chain, events };
}

/**
 * The memories of one scope with their state at T (for the checkout). Views read here are not kept:
 * a scope may hold 100,000 memories.
 */
async function statesOf(layer: MemoryLayer, project: string | null, at: At): Promise<(MemoryState & { salience: SalienceRecord })[]> {
  const out: (MemoryState & { salience: SalienceRecord })[] = [];
  for (const [hash, m] of layer.index.memories) {
    if (m.facts.project !== project) continue;
    out.push({ ...(await stateOf(layer, hash, at, layer.index.isCached(hash))), salience: layer.salience.get(hash) ?? emptySalience() });
  }
  return out;
}

/** Every memory of one scope with its state at T (for the persona checkout). */
export async function scopeStates(
  layer: MemoryLayer,
  options: { project?: string | null; at?: string } = {},
): Promise<(MemoryState & { salience: SalienceRecord })[]> {
  const project = checkProject(options.project, 'project');
  const at = timeOf(layer, options.at);
  await layer.index.refresh();
  return statesOf(layer, project, at);
}

/**
 * The persona file of one scope: the memories promoted into the agent's context and those confirmed,
 * disputed ones stated as disputed, hypotheses as hypotheses; at most `checkout_max_rows` lines and
 * `checkout_max_bytes` bytes of them, with a closing note of how many were left out.
 */
export function checkout(layer: MemoryLayer, options: { project?: string | null; at?: string } = {}): Promise<string> {
  return checkoutWith(layer, options, candidatesOf);
}

/** The persona file from a judgement of every memory of the scope: the reference the index is tested against (internal). */
export function checkoutByScan(layer: MemoryLayer, options: { project?: string | null; at?: string } = {}): Promise<string> {
  return checkoutWith(layer, options, statesOf);
}

/**
 * The states of the memories that may enter the persona file: the confirmed ones (from the confirmed
 * index) and the promoted ones; no other memory of the scope is judged.
 */
async function candidatesOf(layer: MemoryLayer, project: string | null, at: At): Promise<MemoryState[]> {
  const hashes = new Set((await layer.confirmed.confirmed(layer, project, at)).map((c) => c.hash));
  for (const [hash, m] of layer.index.memories) if (m.promoted && m.facts.project === project) hashes.add(hash);
  const out: MemoryState[] = [];
  for (const hash of hashes) out.push(await stateOf(layer, hash, at, layer.index.isCached(hash)));
  return out;
}

async function checkoutWith(
  layer: MemoryLayer,
  options: { project?: string | null; at?: string },
  statesIn: (layer: MemoryLayer, project: string | null, at: At) => Promise<MemoryState[]>,
): Promise<string> {
  const project = checkProject(options.project, 'project');
  const at = timeOf(layer, options.at);
  await layer.index.refresh();
  const items: PersonaItem[] = [];
  for (const s of await statesIn(layer, project, at)) {
    const confirmed = isConfirmed(layer, s);
    // Promoted by the chain's PROMO_GATE events, never by anything in the salience store.
    if (!confirmed && layer.index.get(s.hash)?.promoted !== true) continue;
    items.push({
      hash: s.hash,
      text: s.text,
      class: s.class,
      confidence: s.confidence,
      acceptance: s.warrant.acceptance,
      support_count: s.support_count,
      refute_count: s.refute_count,
      confirmed,
      disputed: isDisputedMemory(s),
    });
  }
  items.sort((a, b) => b.confidence - a.confidence || (a.hash < b.hash ? -1 : 1));
  return renderPersonaFile(items, at.text, project, { maxRows: layer.config.checkout_max_rows, maxBytes: layer.config.checkout_max_bytes });
}

/**
 * Read an edited persona file back. A line left as checked out changes nothing; a changed or new line
 * becomes a new inference (derived from the memory it was checked out from, if marked), never
 * verification: its confidence starts at 0 whatever the line claims. Nothing is deleted.
 */
export async function readBack(
  layer: MemoryLayer,
  markdown: string,
  options: { project?: string | null; source?: string } = {},
): Promise<{ unchanged: number; asserted: StoreMemoryResult[] }> {
  if (typeof markdown !== 'string') throw badInput('markdown', 'must be the text of the file');
  const project = checkProject(options.project, 'project');
  const source = options.source === undefined ? 'memory.md' : checkText(options.source, 'source', 256);
  await layer.index.refresh();
  let unchanged = 0;
  const at = timeOf(layer, undefined);
  // Every line is checked and made into its memory first; then every new one is written in one
  // commit (one putMany with their STORE events): a file read back is stored whole or not at all.
  const fresh = new Map<string, MemoryFacts>();
  const hashes: string[] = [];
  for (const [i, line] of parsePersonaFile(markdown).entries()) {
    const from = line.hash === null ? undefined : layer.index.get(line.hash);
    if (from !== undefined && oneLine(from.facts.text) === line.text) {
      unchanged += 1;
      continue;
    }
    const text = checkText(line.text, `markdown.lines[${i}]`);
    const hash = memoryHash({ text, project, source });
    const existing = layer.index.get(hash);
    if (existing !== undefined && existing.current !== 'inference') {
      throw new MemoryError('EWP_REFUSE_MEMORY_CLASS_CONFLICT', `memory ${hash} is stored as ${existing.current}; change it with reclass`, {
        path: `markdown.lines[${i}]`,
        memory: hash,
      });
    }
    hashes.push(hash);
    if (existing !== undefined || fresh.has(hash)) continue;
    fresh.set(hash, {
      hash,
      class: 'inference',
      project,
      source,
      text,
      origin_type: defaultOrigin('inference'),
      observed_at: at.text,
      derived_from: from !== undefined && from.facts.project === project ? [from.facts.hash] : [],
    });
  }
  const facts = [...fresh.values()];
  if (facts.length > 0) {
    await layer.evidenceStore.putMany(
      facts.map((f) => memoryView(f)),
      { entries: facts.map((f) => storeEvent(f)) },
    );
    await layer.index.refresh();
  }
  const asserted: StoreMemoryResult[] = [];
  for (const hash of hashes) {
    asserted.push({ ...(await stateOf(layer, hash, timeOf(layer, undefined))), status: fresh.has(hash) ? 'stored' : 'unchanged', links: [] });
    // A line repeated in the file is one memory, stored once.
    fresh.delete(hash);
  }
  return { unchanged, asserted };
}
