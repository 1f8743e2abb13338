import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryEvidenceStore } from '@ewp/ledger';
import { SqliteEvidenceStore } from '@ewp/sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import type { MemoryLedgerOptions } from './memory-layer.js';
import { MemoryLedger } from './memory-ledger.js';
import { trigramSimilarity } from './similarity.js';

const T = '2026-12-01T12:00:00Z';
const dir = mkdtempSync(join(tmpdir(), 'ewp-self-support-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
/**
 * A measure that misses these paraphrases (trigram cosine at 0.85, as in the reported attack): the rule
 * must hold where the echo check says "not an echo", since it reads sources, not wording.
 */
const MISSES_PARAPHRASES: MemoryLedgerOptions = { now: () => T, similarity: trigramSimilarity, config: { sim_threshold: 0.85 } };

/** The LINK or REFUTE event of `support` → `target`. */
async function linkEventOf(memory: MemoryLedger, support: string, target: string) {
  const [e] = await memory.evidenceStore.readEntries({ kind: ['memory.link', 'memory.refute'], id: `${support}>${target}` });
  return e?.body as Record<string, unknown> | undefined;
}

describe('nothing supports itself', () => {
  it('a paraphrase from the claim’s own source adds no source and no confidence, and cannot pass the gate', async () => {
    const memory = new MemoryLedger(new MemoryEvidenceStore(), MISSES_PARAPHRASES);
    const h = await memory.store({ text: 'The scheduler is misconfigured on every host', class: 'hypothesis', source: 'agent' });
    expect([h.distinct_sources, h.confidence]).toEqual([0, 0]);
    const o = await memory.store({
      text: 'Every machine has a broken scheduler configuration',
      class: 'observation',
      source: 'agent',
      supports: [h.hash],
    });
    // Not an echo by wording: the self-support rule decides, not similarity.
    expect(o.links[0]).toMatchObject({ status: 'linked', echo: false, self_support: true, target_distinct_sources: 0, target_confidence: 0 });
    const shown = await memory.show(h.hash);
    expect(shown).toMatchObject({ distinct_sources: 0, support_count: 0, self_support_count: 1, confidence: 0 });
    expect(await linkEventOf(memory, o.hash, h.hash)).toMatchObject({ self_support: true, echo: false });
    for (let i = 0; i < 5; i += 1) await memory.recall({ query: 'scheduler misconfigured' });
    const gate = await memory.evidenceStore.readEntries({ kind: 'memory.promo_gate', subject: `mem:${h.hash}` });
    expect(gate.map((e) => e.body.reason)).toEqual(['promotion_blocked:no_evidence']);
    expect(await memory.checkout()).not.toContain(h.hash);

    // Another source is independent: its support counts (the rule is about sources, not wording).
    const other = await memory.store({
      text: 'systemd timers on web-3 point at a removed unit',
      class: 'observation',
      source: 'ssh:web-3',
      supports: [h.hash],
    });
    expect(other.links[0]).toMatchObject({ self_support: false, target_distinct_sources: 1 });
    expect(await linkEventOf(memory, other.hash, h.hash)).toMatchObject({ self_support: false });
  });

  it('a support from the lineage of what the target was derived from is not independent, transitively', async () => {
    const memory = new MemoryLedger(new MemoryEvidenceStore(), MISSES_PARAPHRASES);
    const seen = await memory.store({ text: 'Disk sda on db-1 reported 12 reallocated sectors', class: 'observation', source: 'smartctl' });
    const step = await memory.store({ text: 'sda on db-1 is wearing out', class: 'inference', source: 'agent', derived_from: [seen.hash] });
    const claim = await memory.store({ text: 'db-1 needs a new disk this month', class: 'inference', source: 'planner', derived_from: [step.hash] });
    // smartctl is where the claim came from (two steps back): a second reading of it is not independent.
    const again = await memory.store({ text: 'smartctl: sda reallocated sector count 14', class: 'observation', source: 'smartctl', supports: [claim.hash] });
    expect(again.links[0]).toMatchObject({ self_support: true, target_distinct_sources: 0, target_confidence: 0 });
    // So is a reading attributed to the agent the middle step came from.
    const agent = await memory.store({ text: 'I looked: the disk is old', class: 'observation', source: 'agent', supports: [claim.hash] });
    expect(agent.links[0]).toMatchObject({ self_support: true, target_distinct_sources: 0 });
    // A refutation from the claim's own lineage is marked too.
    const own = await memory.store({ text: 'planner: the purchase can wait', class: 'observation', source: 'planner' });
    const r = await memory.refute(own.hash, claim.hash);
    expect(r).toMatchObject({ polarity: 'opposes', self_support: true });
    expect(await linkEventOf(memory, own.hash, claim.hash)).toMatchObject({ self_support: true, polarity: 'opposes' });
    // An independent source counts.
    const vendor = await memory.store({
      text: 'Vendor RMA portal lists sda as failing',
      class: 'observation',
      source: 'vendor-portal',
      supports: [claim.hash],
    });
    expect(vendor.links[0]).toMatchObject({ self_support: false, target_distinct_sources: 1 });
  });

  it('the counts are read from the records: a reopened SQLite ledger gives the same counts', async () => {
    const path = join(dir, 'reopen.sqlite');
    const first = new MemoryLedger(new SqliteEvidenceStore(path), MISSES_PARAPHRASES);
    const h = await first.store({ text: 'The cache is cold after every deploy', class: 'hypothesis', source: 'agent' });
    await first.store({ text: 'After each deploy the cache starts empty', class: 'observation', source: 'agent', supports: [h.hash] });
    await first.store({ text: 'cache hit rate 0.02 at 10:01', class: 'observation', source: 'metrics', supports: [h.hash] });
    const before = await first.show(h.hash);
    await first.evidenceStore.close();
    const second = new MemoryLedger(new SqliteEvidenceStore(path), MISSES_PARAPHRASES);
    const after = await second.show(h.hash);
    expect(before).toMatchObject({ distinct_sources: 1, self_support_count: 1, support_count: 1 });
    for (const k of ['distinct_sources', 'support_count', 'self_support_count', 'echo_count', 'confidence'] as const) expect(after[k]).toBe(before[k]);
    await second.evidenceStore.close();
  });
});
