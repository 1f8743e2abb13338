import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type EntryQuery, type EvidenceStore, JsonFileEvidenceStore, type LedgerEntryInput, MemoryEvidenceStore } from '@ewp/ledger';
import { SqliteEvidenceStore } from '@ewp/sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { type DecisionFacts, DecisionLedger, decisionFactsFor } from './decision-ledger.js';
import { DECISION_ENTRY_KINDS } from './entry-kinds.js';

const dir = mkdtempSync(join(tmpdir(), 'ewp-decision-facts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

const STORES: [string, () => EvidenceStore][] = [
  ['memory', () => new MemoryEvidenceStore()],
  ['sqlite file', () => new SqliteEvidenceStore(join(dir, `l-${++n}.sqlite`))],
  ['json files', () => new JsonFileEvidenceStore(join(dir, `l-${++n}`))],
];

/** A small seeded generator (mulberry32): the same ledgers on every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ACTIONS = ['Bash', 'Write', 'deploy', 'restart'];
const PROPS = ['P-a', 'P-b', 'P-c', 'P-d', 'P-e'];

/**
 * A ledger's worth of decision-layer entries in random order: decisions on a few actions (some held by a
 * recovery gate), re-evaluations and retractions of a few propositions, one in ten whose body names a
 * proposition its subjects do not list, and unrelated entries between them.
 */
function entries(seed: number, count: number): LedgerEntryInput[] {
  const r = random(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)] as T;
  const out: LedgerEntryInput[] = [];
  // Mostly the proposition itself; now and then none, or another one only.
  const subjectsFor = (pid: string) => {
    const x = r();
    return x < 0.05 ? [] : x < 0.1 ? [pick(PROPS.filter((p) => p !== pid))] : [pid];
  };
  for (let i = 0; i < count; i += 1) {
    const pid = pick(PROPS);
    const roll = r();
    if (roll < 0.6) {
      const basis = [{ proposition_id: pid, view_id: `v-${i}` }, ...(r() < 0.3 ? [{ proposition_id: pick(PROPS), view_id: `w-${i}` }] : [])];
      const recovery = r() < 0.7 ? null : { decision: pick(['MAY_ACT', 'DENY', 'REQUIRE_REEVALUATION']) };
      out.push({
        kind: DECISION_ENTRY_KINDS.decision,
        id: `dec-${seed}-${i}`,
        subjects: basis.map((b) => b.proposition_id).filter((p, k, all) => all.indexOf(p) === k),
        body: { record: { action: { action_id: pick(ACTIONS) }, basis, recovery }, signature: null },
      });
    } else if (roll < 0.75) {
      out.push({ kind: DECISION_ENTRY_KINDS.evaluated, id: `ev-${seed}-${i}`, subjects: subjectsFor(pid), body: { proposition_id: pid, view_id: `v-${i}` } });
    } else if (roll < 0.9) {
      const records = [`check:C-${Math.floor(r() * 4)}`, ...(r() < 0.3 ? [`check:C-${Math.floor(r() * 4)}`] : [])];
      out.push({ kind: DECISION_ENTRY_KINDS.invalidation, id: `inv-${seed}-${i}`, subjects: subjectsFor(pid), body: { proposition_id: pid, records } });
    } else {
      out.push({ kind: 'memory.store', id: `m-${seed}-${i}`, subjects: [pid], body: { text: `note ${i}` } });
    }
  }
  return out;
}

/** Everything a recovery gate may ask of `facts` for an action and the propositions in scope. */
function answers(facts: DecisionFacts, actionId: string, pids: Iterable<string>) {
  const baseline = facts.baseline(actionId);
  const scope = new Set([...pids, ...(baseline?.record.basis ?? []).map((b) => b.proposition_id)]);
  return {
    baseline: baseline === undefined ? undefined : { id: baseline.decision_id, index: baseline.chain_index },
    propositions: [...scope].sort().map((pid) => ({
      pid,
      refuted: [...facts.refuted(pid)].sort(),
      lastRefutation: facts.lastRefutation(pid),
      reevaluation: facts.reevaluation(pid),
    })),
  };
}

/** `store` with its reads counted, entry by entry. */
function counting(store: EvidenceStore): { store: EvidenceStore; read: () => number } {
  let read = 0;
  const readEntries = store.readEntries.bind(store);
  store.readEntries = async (q?: EntryQuery) => {
    const out = await readEntries(q);
    read += out.length;
    return out;
  };
  return { store, read: () => read };
}

describe.each(STORES)('decisionFactsFor on a %s ledger', (_name, create) => {
  it('answers every question of a recovery gate as the synced decision index does, over random ledgers', async () => {
    for (let seed = 1; seed <= 12; seed += 1) {
      const store = create();
      const all = entries(seed, 40 + seed * 7);
      // In several writes, so entries interleave with chain events of their own.
      for (let i = 0; i < all.length; i += 9) await store.appendEntries(all.slice(i, i + 9));
      const ledger = DecisionLedger.for(store);
      await ledger.sync();
      const r = random(seed * 31);
      for (let k = 0; k < 8; k += 1) {
        const action = ACTIONS[Math.floor(r() * ACTIONS.length)] as string;
        const pids = PROPS.filter(() => r() < 0.4);
        const scoped = await decisionFactsFor(store, action, pids);
        expect(answers(scoped, action, pids), `seed ${seed}, ${action} on ${pids.join(',')}`).toEqual(answers(ledger, action, pids));
      }
      await store.close();
    }
  });

  it('reads a few entries for a decision however many decisions the ledger holds', async () => {
    const { store, read } = counting(create());
    const decisions: LedgerEntryInput[] = Array.from({ length: 1500 }, (_, i) => ({
      kind: DECISION_ENTRY_KINDS.decision,
      id: `dec-${i}`,
      subjects: ['P-a'],
      body: {
        record: { action: { action_id: i % 3 === 0 ? 'deploy' : 'Bash' }, basis: [{ proposition_id: 'P-a', view_id: `v-${i}` }], recovery: null },
        signature: null,
      },
    }));
    for (let i = 0; i < decisions.length; i += 500) await store.appendEntries(decisions.slice(i, i + 500));
    await store.appendEntries([
      { kind: DECISION_ENTRY_KINDS.invalidation, id: 'inv-1', subjects: ['P-a'], body: { proposition_id: 'P-a', records: ['check:C-1'] } },
    ]);
    const before = read();
    const facts = await decisionFactsFor(store, 'deploy', ['P-a']);
    expect(facts.baseline('deploy')?.decision_id).toBe('dec-1497');
    expect([...facts.refuted('P-a')]).toEqual(['check:C-1']);
    // The newest page of decisions and the proposition's one retraction, not 1,500 decisions.
    expect(read() - before).toBeLessThanOrEqual(10);
    // An action never decided reads every decision once, as a full sync would.
    expect((await decisionFactsFor(store, 'never', ['P-a'])).baseline('never')).toBeUndefined();
    await store.close();
  });

  it('refuses a question outside what it read', async () => {
    const store = create();
    const facts = await decisionFactsFor(store, 'Bash', ['P-a']);
    expect(facts.refuted('P-a').size).toBe(0);
    expect(() => facts.refuted('P-z')).toThrow(/P-z/);
    expect(() => facts.baseline('Write')).toThrow(/Write/);
    await store.close();
  });
});

describe('decisionFactsFor on a store that ignores newestFirst', () => {
  it('notices the order and reads the whole decision index instead', async () => {
    const inner = new MemoryEvidenceStore();
    await inner.appendEntries(entries(7, 120));
    // What an EvidenceStore written before `newestFirst` and `beforeIndex` existed would do: ignore both.
    const readEntries = inner.readEntries.bind(inner);
    inner.readEntries = (q?: EntryQuery) => {
      const { newestFirst: _n, beforeIndex: _b, ...older } = q ?? {};
      return readEntries(older);
    };
    for (const action of ACTIONS) expect(await decisionFactsFor(inner, action, PROPS)).toBe(DecisionLedger.for(inner));
  });
});
