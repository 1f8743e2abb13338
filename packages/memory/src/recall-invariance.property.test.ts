/** Property: no sequence of recalls, replays and promotion passes changes any confidence, warrant or digest. */
import { MemoryEvidenceStore } from '@ewp/ledger';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EPISTEMIC_CLASSES } from './epistemic-class.js';
import { MemoryLedger } from './memory-ledger.js';
import { propositionOf } from './memory-records.js';
import { BACKUP, SUITE_T } from './testing/index.js';

const TIMES = [SUITE_T, '2027-03-01T00:00:00Z', '2028-01-01T00:00:00Z'];
const WORDS = ['backup', 'scheduler', '06', 'cron', 'safe', 'nothing'];

async function ledgerWithMemories(): Promise<{ memory: MemoryLedger; hashes: string[] }> {
  const memory = new MemoryLedger(new MemoryEvidenceStore(), { now: () => SUITE_T, config: { promotion_energy: 2 } });
  const claim = await memory.store({ text: BACKUP.claim, class: 'inference' });
  const h = await memory.store({ text: BACKUP.hypothesis, class: 'hypothesis' });
  const o = await memory.store({ text: BACKUP.observation, class: 'observation', source: 'scheduler', supports: [claim.hash] });
  await memory.store({ text: BACKUP.nearCopy, class: 'observation', source: 'scheduler', supports: [claim.hash] });
  const r = await memory.store({ text: BACKUP.refutation, class: 'observation', source: 'ops-log' });
  await memory.refute(r.hash, claim.hash);
  const e = await memory.store({ text: BACKUP.independent, class: 'evidence', source: 'cron', supports: [h.hash] });
  return { memory, hashes: [claim.hash, h.hash, o.hash, r.hash, e.hash] };
}

/** Everything recall must never move: per memory and T, its confidence, counts, warrant and view digest; the snapshots. */
async function evidenceState(memory: MemoryLedger, hashes: string[]) {
  const out = [];
  for (const hash of hashes) {
    for (const at of TIMES) {
      // Promotion is what a recall may cause (a PROMO_GATE event), so it is left out with salience.
      const { salience: _s, events: _e, promoted: _p, ...state } = await memory.show(hash, at);
      out.push(state);
    }
    out.push(await memory.evidenceStore.listSnapshots(propositionOf(hash)));
    out.push(await memory.evidenceStore.get(propositionOf(hash)));
  }
  return out;
}

const op = fc.oneof(
  fc.record({
    kind: fc.constant('recall' as const),
    query: fc.option(fc.constantFrom(...WORDS), { nil: undefined }),
    classes: fc.option(fc.subarray([...EPISTEMIC_CLASSES], { minLength: 1 }), { nil: undefined }),
    min: fc.option(fc.integer({ min: 0, max: 100 }), { nil: undefined }),
    at: fc.constantFrom(...TIMES),
    touch: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('replay' as const), index: fc.integer({ min: 0, max: 4 }) }),
  fc.record({ kind: fc.constant('pass' as const) }),
);

describe('recall changes no evidence', () => {
  it('no sequence of recalls, replays and promotion passes changes any confidence, warrant or digest', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 25 }), async (ops) => {
        const { memory, hashes } = await ledgerWithMemories();
        const before = await evidenceState(memory, hashes);
        for (const o of ops) {
          if (o.kind === 'recall') await memory.recall({ query: o.query, class: o.classes, confidence_min: o.min, at: o.at, touch: o.touch });
          else if (o.kind === 'replay') await memory.replay(hashes[o.index]!);
          else await memory.promotionPass();
        }
        expect(await evidenceState(memory, hashes)).toEqual(before);
        expect((await memory.audit()).chain.ok).toBe(true);
      }),
      { numRuns: 40 },
    );
  });
});
