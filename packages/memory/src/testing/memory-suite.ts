/**
 * The evidence-layer matrix (docs/spec/evidence-layer.md, tests 1–14) over one store. Every store runs
 * it from a one-file test, as the EvidenceStore suite is run:
 *
 * ```ts
 * import { runMemoryConformance } from '@ewp/memory/testing';
 * runMemoryConformance({ name: 'sqlite', create: () => new SqliteEvidenceStore(tmpFile()) });
 * ```
 *
 * Tests 12 and 13 end to end (REST, MCP) live with those servers; here they run through the library,
 * the function every surface calls.
 */
import type { EvidenceStore } from '@ewp/ledger';
import { afterEach, describe, expect, it } from 'vitest';
import type { MemoryConfigInput } from '../config.js';
import { MemoryError } from '../errors.js';
import { MEMORY_EVENT_KINDS } from '../memory-events.js';
import type { MemoryLedgerOptions } from '../memory-layer.js';
import { MemoryLedger } from '../memory-ledger.js';
import { InMemorySalienceStore } from '../salience-store.js';

/** How the suite gets stores; the flags of optional hooks decide which checks run. */
export interface MemorySuiteOptions<S extends EvidenceStore = EvidenceStore> {
  /** Shown in test names. */
  name: string;
  /** A new, empty store. */
  create: () => S | Promise<S>;
  /** Close `store` and open the same ledger again (persistent stores). */
  reopen?: (store: S) => Promise<S>;
  /** Remove what `create` made; called after `close`. */
  destroy?: (store: S) => Promise<void>;
  /** Change one byte of the stored entry `(kind, id)` behind the store's back (the tamper test). */
  tamperEntry?: (store: S, kind: string, id: string) => Promise<void>;
  /** A second handle on the ledger behind `store` to audit the tamper with (as `ewp audit verify` opens one); default `store`. */
  auditor?: (store: S) => Promise<S>;
}

/** The write clock and the evaluation instant the matrix uses. */
export const SUITE_T = '2026-12-01T12:00:00Z';

/** The texts of the backup-window story the matrix tells. */
export const BACKUP = {
  claim: 'The 05:50 maintenance window is safe because the backup job starts at 06:00',
  hypothesis: 'The scheduler is misconfigured on every host',
  observation: 'The backup job starts at 06:00 (read from the scheduler)',
  nearCopy: 'the backup job starts at 06:00, read from the scheduler.',
  independent: 'Cron on the backup host lists 0 6 * * * for the nightly backup',
  refutation: 'On 2026-11-30 the backup job started at 05:40 after a manual trigger',
  later: 'The scheduler export of 2026-12-01 shows the backup at 06:00 again',
} as const;

/** Register the matrix with vitest. */
export function runMemoryConformance<S extends EvidenceStore>(options: MemorySuiteOptions<S>): void {
  const open: S[] = [];
  afterEach(async () => {
    for (const store of open.splice(0)) {
      await store.close().catch(() => undefined);
      await options.destroy?.(store);
    }
  });

  async function fresh(config: MemoryConfigInput = {}, extra: MemoryLedgerOptions = {}): Promise<{ store: S; memory: MemoryLedger }> {
    const store = await options.create();
    open.push(store);
    return { store, memory: new MemoryLedger(store, { now: () => SUITE_T, config, ...extra }) };
  }

  async function refused(promise: Promise<unknown>): Promise<MemoryError> {
    try {
      await promise;
    } catch (error) {
      if (MemoryError.isInstance(error)) return error;
      throw error;
    }
    throw new Error('expected a MemoryError refusal, but the call succeeded');
  }

  describe(`evidence layer: ${options.name}`, () => {
    it('1. confidence does not rise on recall alone', async () => {
      const { memory } = await fresh({ promotion_energy: 1000 });
      const h = await memory.store({ text: BACKUP.hypothesis, class: 'hypothesis' });
      const i = await memory.store({ text: BACKUP.claim, class: 'inference' });
      for (let n = 0; n < 100; n += 1) {
        const rows = await memory.recall({ query: 'scheduler backup', at: SUITE_T });
        for (const row of rows) expect(row.confidence).toBe(0);
        await memory.replay(i.hash, SUITE_T);
      }
      expect((await memory.show(h.hash, SUITE_T)).confidence).toBe(0);
      expect((await memory.show(i.hash, SUITE_T)).confidence).toBe(0);
      expect((await memory.show(h.hash)).salience.recall_count).toBe(100);
      const o = await memory.store({ text: BACKUP.observation, class: 'observation', source: 'scheduler', supports: [i.hash] });
      expect(o.links[0]).toMatchObject({ target: i.hash, echo: false, status: 'linked' });
      const after = await memory.show(i.hash, SUITE_T);
      expect(after.confidence).toBeGreaterThan(0);
      expect(after).toMatchObject({ support_count: 1, distinct_sources: 1 });
    });

    it('2. self-echo and paraphrase do not add sources', async () => {
      const { memory } = await fresh();
      const claim = await memory.store({ text: BACKUP.claim, class: 'inference', source: 'agent' });
      const o1 = await memory.store({ text: BACKUP.observation, class: 'observation', source: 'scheduler', supports: [claim.hash] });
      const one = await memory.show(claim.hash, SUITE_T);
      expect(one).toMatchObject({ support_count: 1, distinct_sources: 1 });
      // The same source re-storing a near copy of its observation: an echo, nothing added.
      const copy = await memory.store({ text: BACKUP.nearCopy, class: 'observation', source: 'scheduler', supports: [claim.hash] });
      expect(copy.links[0]).toMatchObject({ echo: true, echo_of: `sup:${o1.hash}` });
      // The agent re-storing its own conclusion as an "observation": an echo of the claim.
      const self = await memory.store({ text: `${BACKUP.claim}.`, class: 'observation', source: 'agent', supports: [claim.hash] });
      expect(self.links[0]).toMatchObject({ echo: true, echo_of: `claim:${claim.hash}` });
      const echoed = await memory.show(claim.hash, SUITE_T);
      expect(echoed).toMatchObject({ support_count: 1, distinct_sources: 1, echo_count: 2, confidence: one.confidence });
      expect(echoed.independent_lineage_count).toBe(one.independent_lineage_count);
      // A different, independent observation adds a source.
      await memory.store({ text: BACKUP.independent, class: 'observation', source: 'cron', supports: [claim.hash] });
      const two = await memory.show(claim.hash, SUITE_T);
      expect(two).toMatchObject({ support_count: 2, distinct_sources: 2, independent_lineage_count: one.independent_lineage_count + 1 });
      expect(two.confidence).toBeGreaterThan(one.confidence);
      const links = (await memory.audit(claim.hash)).events.filter((e) => e.kind === MEMORY_EVENT_KINDS.link);
      expect(links.map((e) => e.body.echo)).toEqual([false, true, true, false]);
    });

    it('3. refutation lowers confidence; a later independent observation can raise it again', async () => {
      const { memory } = await fresh();
      const claim = await memory.store({ text: BACKUP.claim, class: 'inference' });
      await memory.store({ text: BACKUP.observation, class: 'observation', source: 'scheduler', supports: [claim.hash] });
      const supported = (await memory.show(claim.hash, SUITE_T)).confidence;
      const r = await memory.store({ text: BACKUP.refutation, class: 'observation', source: 'ops-log' });
      const refuted = await memory.refute(r.hash, claim.hash);
      expect(refuted).toMatchObject({ polarity: 'opposes', status: 'linked' });
      const down = await memory.show(claim.hash, SUITE_T);
      expect(down.refute_count).toBe(1);
      expect(down.confidence).toBeLessThan(supported);
      expect(down.warrant.conflict).toBe('OPEN');
      await memory.store({ text: BACKUP.later, class: 'observation', source: 'scheduler-export', supports: [claim.hash] });
      expect((await memory.show(claim.hash, SUITE_T)).confidence).toBeGreaterThan(down.confidence);
    });

    it('4. the promotion gate blocks an unsupported inference or hypothesis and the PROMO_GATE event is in the audit chain', async () => {
      const { memory } = await fresh({ promotion_energy: 5 });
      const h = await memory.store({ text: BACKUP.hypothesis, class: 'hypothesis' });
      for (let n = 0; n < 5; n += 1) await memory.recall({ query: 'scheduler misconfigured' });
      const shown = await memory.show(h.hash);
      expect(shown.distinct_sources).toBe(0);
      expect(shown.salience).toMatchObject({ importance: 0, promoted: false });
      const gates = shown.events.filter((e) => e.kind === MEMORY_EVENT_KINDS.promoGate);
      expect(gates).toHaveLength(1);
      expect(gates[0]!.body).toMatchObject({ memory: h.hash, decision: 'blocked', reason: 'promotion_blocked:no_evidence', class: 'hypothesis' });
      const audit = await memory.audit(h.hash);
      expect(audit.chain.ok).toBe(true);
      // The chain holds the gate event: an observation later lets the same memory through.
      const o = await memory.store({ text: BACKUP.independent, class: 'observation', source: 'cron', supports: [h.hash] });
      expect(o.links[0]!.target_distinct_sources).toBe(1);
      await memory.recall({ query: 'scheduler misconfigured' });
      expect((await memory.show(h.hash)).salience).toMatchObject({ importance: 1, promoted: true });
      expect(await memory.gateStats()).toMatchObject({ allowed: 1, blocked: 1 });
    });

    it('5. an inference cannot be linked as support (nor a hypothesis, nor a memory itself)', async () => {
      const { store, memory } = await fresh();
      const claim = await memory.store({ text: BACKUP.claim, class: 'inference' });
      const inference = await memory.store({ text: 'So nothing runs between 05:50 and 06:00', class: 'inference' });
      const hypothesis = await memory.store({ text: BACKUP.hypothesis, class: 'hypothesis' });
      const o = await memory.store({ text: BACKUP.observation, class: 'observation', source: 'scheduler' });
      const before = await store.verifyChain();
      for (const bad of [inference.hash, hypothesis.hash]) {
        const e = await refused(memory.link(bad, claim.hash));
        expect(e.code).toBe('EWP_REFUSE_MEMORY_SUPPORT_CLASS');
        expect(e.memory).toBe(bad);
        expect(e.message).toContain(bad);
        expect((await refused(memory.refute(bad, claim.hash))).code).toBe('EWP_REFUSE_MEMORY_SUPPORT_CLASS');
      }
      const viaStore = await refused(memory.store({ text: 'A new guess', class: 'hypothesis', supports: [claim.hash] }));
      expect(viaStore.code).toBe('EWP_REFUSE_MEMORY_SUPPORT_CLASS');
      expect(viaStore.path).toBe('supports[0]');
      expect((await refused(memory.link(o.hash, o.hash))).code).toBe('EWP_REFUSE_MEMORY_SELF_LINK');
      expect((await refused(memory.link(o.hash, 'f'.repeat(32)))).code).toBe('EWP_REFUSE_MEMORY_UNKNOWN');
      // Nothing of a refused call was written.
      expect(await store.verifyChain()).toEqual(before);
      expect(await memory.recall({ query: 'guess', touch: false })).toEqual([]);
      await memory.link(o.hash, claim.hash);
      expect((await refused(memory.refute(o.hash, claim.hash))).code).toBe('EWP_REFUSE_MEMORY_LINK_CONFLICT');
      expect((await memory.show(claim.hash)).support_count).toBe(1);
      expect((await store.readEntries({ kind: MEMORY_EVENT_KINDS.link })).length).toBe(1);
      // A memory reclassified as an inference stops counting as support.
      await memory.reclass(o.hash, 'inference', 'it was the agent reading its own notes');
      expect((await memory.show(claim.hash)).support_count).toBe(0);
    });

    it.skipIf(options.tamperEntry === undefined)('6. audit chain tamper detection: one changed byte of a gate event fails verification', async () => {
      const { store, memory } = await fresh({ promotion_energy: 1 });
      const h = await memory.store({ text: BACKUP.hypothesis, class: 'hypothesis' });
      await memory.recall({ query: 'scheduler' });
      const [gate] = await store.readEntries({ kind: MEMORY_EVENT_KINDS.promoGate });
      expect(gate?.body.memory).toBe(h.hash);
      expect((await memory.audit()).chain.ok).toBe(true);
      await options.tamperEntry!(store, gate!.kind, gate!.id);
      const auditor = (await options.auditor?.(store)) ?? store;
      if (auditor !== store) open.push(auditor);
      const chain = (auditor === store ? await memory.audit() : await new MemoryLedger(auditor).audit()).chain;
      expect(chain.ok).toBe(false);
    });

    it('7. a rebuild (re-reading the ledger, re-deriving the counts) is idempotent: same confidence and class', async () => {
      const { store, memory } = await fresh();
      const claim = await memory.store({ text: BACKUP.claim, class: 'inference' });
      await memory.store({ text: BACKUP.observation, class: 'observation', source: 'scheduler', supports: [claim.hash] });
      await memory.store({ text: BACKUP.nearCopy, class: 'observation', source: 'scheduler', supports: [claim.hash] });
      const r = await memory.store({ text: BACKUP.refutation, class: 'observation', source: 'ops-log' });
      await memory.refute(r.hash, claim.hash);
      const h = await memory.store({ text: BACKUP.hypothesis, class: 'hypothesis' });
      await memory.reclass(h.hash, 'inference');
      const hashes = [claim.hash, r.hash, h.hash];
      const snapshot = async (m: MemoryLedger) => Promise.all(hashes.map(async (x) => ({ ...(await m.show(x, SUITE_T)), salience: null, events: null })));
      const first = await snapshot(memory);
      expect(await snapshot(new MemoryLedger(store, { now: () => SUITE_T }))).toEqual(first);
      expect(await snapshot(new MemoryLedger(store, { now: () => SUITE_T }))).toEqual(first);
    });

    it('8. the class survives a rebuild and a round trip through the store', async () => {
      const { store, memory } = await fresh();
      const stored = [];
      for (const cls of ['observation', 'evidence', 'inference', 'hypothesis'] as const) {
        stored.push(await memory.store({ text: `a memory of class ${cls}`, class: cls, source: `src-${cls}` }));
      }
      await memory.reclass(stored[0]!.hash, 'hypothesis', 'it was a guess');
      await memory.reclass(stored[3]!.hash, 'observation', 'it was read from a tool after all');
      const expected = ['hypothesis', 'evidence', 'inference', 'observation'];
      let again: S = store;
      if (options.reopen !== undefined) {
        open.splice(open.indexOf(store), 1);
        again = await options.reopen(store);
        open.push(again);
      }
      const rebuilt = new MemoryLedger(again, { now: () => SUITE_T });
      const classes = await Promise.all(stored.map(async (s) => (await rebuilt.show(s.hash, SUITE_T)).class));
      expect(classes).toEqual(expected);
      const rows = await rebuilt.recall({ query: 'memory class', limit: 10, touch: false });
      expect(Object.fromEntries(rows.map((r) => [r.hash, r.class]))).toEqual(Object.fromEntries(stored.map((s, i) => [s.hash, expected[i]])));
      // The memory first stored as a hypothesis, now an observation, counts as its own support.
      expect((await rebuilt.show(stored[3]!.hash, SUITE_T)).support_count).toBe(1);
      expect((await rebuilt.show(stored[0]!.hash, SUITE_T)).confidence).toBe(0);
    });

    it('9. three replays of a hypothesis: its importance does not rise, while recall, ranking and replay keep working', async () => {
      const { memory } = await fresh({ promotion_energy: 2 });
      const h = await memory.store({ text: BACKUP.hypothesis, class: 'hypothesis' });
      const o = await memory.store({ text: BACKUP.observation, class: 'observation', source: 'scheduler' });
      await memory.replay(o.hash);
      for (let n = 0; n < 3; n += 1) await memory.replay(h.hash);
      const s = (await memory.show(h.hash)).salience;
      expect(s).toMatchObject({ recall_count: 3, energy: 3, importance: 0, promoted: false });
      expect((await memory.plainContext()).map((r) => r.hash)).toEqual([h.hash, o.hash]);
      const rows = await memory.recall({ query: 'scheduler' });
      expect(rows.map((r) => r.hash)).toEqual([h.hash, o.hash]);
      expect((await memory.show(h.hash)).salience.importance).toBe(0);
      // The observation is promoted when its energy reaches the threshold: the gate lets evidence through.
      expect((await memory.show(o.hash)).salience).toMatchObject({ importance: 1, promoted: true });
    });

    it('10. with eviction_evidence_bias = 0 the hot set behaves exactly as before (salience order)', async () => {
      const { memory } = await fresh({ promotion_energy: 1000, hot_k: 3 });
      const claim = await memory.store({ text: BACKUP.claim, class: 'inference' });
      const hashes = [claim.hash];
      for (const [n, text] of [BACKUP.observation, BACKUP.independent, BACKUP.later, BACKUP.hypothesis].entries()) {
        hashes.push(
          (await memory.store({ text, class: n === 3 ? 'hypothesis' : 'observation', source: `s${n}`, ...(n < 2 ? { supports: [claim.hash] } : {}) })).hash,
        );
      }
      const replays = [0, 4, 4, 2, 1, 0, 3, 4, 4, 2];
      for (const i of replays) await memory.replay(hashes[i]!);
      const plain = (await memory.plainContext({ limit: 3 })).map((r) => r.hash);
      const hot = (await memory.autoContext()).hot.rows.map((r) => r.hash);
      expect(hot).toEqual(plain);
      expect(hot[0]).toBe(hashes[4]);
      const biased = new MemoryLedger(memory.evidenceStore, { now: () => SUITE_T, salience: memory.salience, config: { eviction_evidence_bias: 1, hot_k: 3 } });
      expect((await biased.autoContext()).hot.rows[0]!.hash).toBe(claim.hash);
    });

    it('11. auto-context shows hot and confirmed as separate rows; the plain context is still available', async () => {
      const { memory } = await fresh({ promotion_energy: 1000 });
      const claim = await memory.store({ text: BACKUP.claim, class: 'inference' });
      await memory.store({ text: BACKUP.observation, class: 'observation', source: 'scheduler', supports: [claim.hash] });
      await memory.store({ text: BACKUP.independent, class: 'observation', source: 'cron', supports: [claim.hash] });
      const h = await memory.store({ text: BACKUP.hypothesis, class: 'hypothesis' });
      for (let n = 0; n < 4; n += 1) await memory.replay(h.hash);
      const context = await memory.autoContext({ at: SUITE_T });
      expect(context.hot.label).toMatch(/^hot:/);
      expect(context.confirmed.label).toMatch(/^confirmed:/);
      expect(context.hot.rows[0]).toMatchObject({ hash: h.hash, class: 'hypothesis', confidence: 0 });
      expect(context.confirmed.rows.map((r) => r.hash)).toEqual([claim.hash]);
      expect(context.confirmed.rows.some((r) => r.hash === h.hash)).toBe(false);
      expect(context.confirmed.rows[0]!.confidence).toBeGreaterThanOrEqual(60);
      expect((await memory.plainContext()).map((r) => r.text)).toEqual([BACKUP.hypothesis]);
    });

    it('12. (library) a hypothesis recalled 100 times keeps confidence 0 and support 0; a supporting observation raises it; the audit shows PROMO_GATE', async () => {
      const { memory } = await fresh();
      const h = await memory.store({ text: BACKUP.hypothesis, class: 'hypothesis' });
      for (let n = 0; n < 100; n += 1) await memory.recall({ query: 'scheduler misconfigured' });
      expect(await memory.show(h.hash)).toMatchObject({ confidence: 0, support_count: 0 });
      const o = await memory.store({ text: BACKUP.independent, class: 'observation', source: 'cron', supports: [h.hash] });
      expect(o.links[0]!.target_confidence).toBeGreaterThan(0);
      expect((await memory.audit(h.hash)).events.map((e) => e.kind)).toContain(MEMORY_EVENT_KINDS.promoGate);
    });

    it('13. (library) the audit verifies; gate statistics count the blocked promotions', async () => {
      const { memory } = await fresh({ promotion_energy: 2 });
      for (const text of ['guess one about the scheduler', 'guess two about the scheduler', 'guess three about the scheduler']) {
        await memory.store({ text, class: 'hypothesis' });
      }
      await memory.recall({ query: 'scheduler' });
      await memory.recall({ query: 'scheduler' });
      await memory.recall({ query: 'scheduler' });
      expect((await memory.audit()).chain.ok).toBe(true);
      const stats = await memory.gateStats();
      expect(stats).toMatchObject({ blocked: 3, allowed: 0, by_reason: { 'promotion_blocked:no_evidence': 3 } });
      expect(await memory.gateStats({ from: '2999-01-01T00:00:00Z' })).toMatchObject({ blocked: 0 });
    });

    it('14. isolation between projects: an observation of one project (or a global one) never becomes a source of another project', async () => {
      const { memory } = await fresh();
      const a = await memory.store({ text: BACKUP.claim, class: 'inference', project: 'alpha' });
      const b = await memory.store({ text: BACKUP.claim, class: 'inference', project: 'beta' });
      expect(a.hash).not.toBe(b.hash);
      const obsB = await memory.store({ text: BACKUP.observation, class: 'observation', source: 'scheduler', project: 'beta' });
      const global = await memory.store({ text: BACKUP.independent, class: 'observation', source: 'cron' });
      for (const s of [obsB.hash, global.hash]) {
        const e = await refused(memory.link(s, a.hash));
        expect(e.code).toBe('EWP_REFUSE_MEMORY_PROJECT_SCOPE');
        expect(e.memory).toBe(s);
      }
      expect((await refused(memory.store({ text: 'x', class: 'observation', project: 'beta', supports: [a.hash] }))).code).toBe(
        'EWP_REFUSE_MEMORY_PROJECT_SCOPE',
      );
      await memory.link(obsB.hash, b.hash);
      expect((await memory.show(a.hash)).distinct_sources).toBe(0);
      expect((await memory.show(b.hash)).distinct_sources).toBe(1);
      const alpha = await memory.recall({ query: 'backup', project: 'alpha', touch: false });
      expect(alpha.map((r) => r.hash)).toEqual([a.hash]);
      expect((await memory.recall({ query: 'backup', touch: false })).map((r) => r.hash)).toEqual([global.hash]);
    });

    it('salience stays out of the ledger: recalls change no view, no snapshot and no warrant', async () => {
      const salience = new InMemorySalienceStore();
      const { store, memory } = await fresh({ promotion_energy: 1000 }, { salience });
      const claim = await memory.store({ text: BACKUP.claim, class: 'inference' });
      await memory.store({ text: BACKUP.observation, class: 'observation', source: 'scheduler', supports: [claim.hash] });
      const before = { view: await store.get(`mem:${claim.hash}`), snapshots: await store.listSnapshots(`mem:${claim.hash}`) };
      for (let n = 0; n < 20; n += 1) await memory.recall({ query: 'backup' });
      expect(await store.get(`mem:${claim.hash}`)).toEqual(before.view);
      expect(await store.listSnapshots(`mem:${claim.hash}`)).toEqual(before.snapshots);
      for (const e of await store.readEntries({ kind: 'memory.*' })) {
        expect(Object.keys(e.body)).not.toEqual(expect.arrayContaining(['energy']));
        expect(JSON.stringify(e.body)).not.toMatch(/recall_count|energy|importance/);
      }
    });
  });
}
