/**
 * The inspector's memory and decision API over a real SQLite ledger written by MemoryLedger and
 * guarded runs (test/memory-story.ts): each answer is what @ewp/memory and @ewp/tools say about the
 * same ledger, salience comes from the side file without writing it, and bad parameters are named.
 */
import { readFileSync, statSync } from 'node:fs';
import { JsonlSalienceStore, MemoryLedger } from '@ewp/memory';
import { SqliteEvidenceStore } from '@ewp/sqlite';
import { listDecisions } from '@ewp/tools';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DecisionPage, type Inspector, type MemoryAnswer, serveInspector } from '../src/index.js';
import { type MemoryStory, memoryStory } from './memory-story.js';

const NOW = '2026-12-02T12:00:00Z';
let story: MemoryStory;
let store: SqliteEvidenceStore;
let inspector: Inspector;
let hypothesis: string;

async function get<T>(url: string): Promise<{ status: number; body: T }> {
  const r = await fetch(url);
  return { status: r.status, body: (await r.json()) as T };
}
const memoryOf = (id: string, at = '') =>
  get<MemoryAnswer & { error?: string }>(`${inspector.url}api/memory?id=${encodeURIComponent(id)}${at ? `&at=${encodeURIComponent(at)}` : ''}`);
const decisionsOf = (query: string) => get<DecisionPage & { error?: string }>(`${inspector.url}api/decisions${query}`);

beforeAll(async () => {
  story = await memoryStory();
  hypothesis = `mem:${story.hypothesis}`;
  store = new SqliteEvidenceStore(story.file, { readOnly: true });
  inspector = await serveInspector({ store, port: 0, clock: () => new Date(NOW), memory: { salience: story.salience } });
});
afterAll(async () => {
  await inspector?.close();
  await store?.close();
});

describe('GET /api/memory', () => {
  it("answers the memory's class, confidence, counts and salience as MemoryLedger.show does, and never writes the salience file", async () => {
    const before = statSync(story.salience);
    const { status, body } = await memoryOf(hypothesis);
    expect(status).toBe(200);
    const m = body.memory;
    if (m === null) throw new Error('expected a memory');
    // The library's own answer over a second handle on the same ledger and salience file.
    const reader = new SqliteEvidenceStore(story.file, { readOnly: true });
    // Read-only, as the inspector opens it: a second writer would wait for this one's lock.
    const library = new MemoryLedger(reader, { salience: new JsonlSalienceStore(story.salience, { readOnly: true }), now: () => NOW });
    const shown = await library.show(story.hypothesis, new Date(NOW).toISOString());
    await reader.close();
    expect(m).toMatchObject({
      hash: story.hypothesis,
      class: 'hypothesis',
      confidence: shown.confidence,
      evaluated_at: shown.evaluated_at,
      view_id: shown.view_id,
      counts: {
        support_count: shown.support_count,
        refute_count: shown.refute_count,
        distinct_sources: shown.distinct_sources,
        echo_count: shown.echo_count,
        first_seen: shown.first_seen,
        last_support: shown.last_support,
        last_refute: shown.last_refute,
      },
      salience: shown.salience,
      salience_from: story.salience,
    });
    // The story: one independent source, one echo of it; six recalls; promotion refused, then allowed.
    expect(m.counts).toMatchObject({ support_count: 1, distinct_sources: 1, echo_count: 1 });
    expect(m.confidence).toBeGreaterThan(0);
    expect(m.salience).toMatchObject({ recall_count: 6, importance: 1, promoted: true });
    // Promotion is read from the chain: top level, the same as the library's and as the salience's.
    expect([m.promoted, shown.promoted]).toEqual([true, true]);
    expect(m.gate.map((g) => [g.decision, g.reason, g.distinct_sources])).toEqual([
      ['blocked', 'promotion_blocked:no_evidence', 0],
      ['allowed', 'promotion_allowed', 1],
    ]);
    expect(m.links.map((l) => [l.direction, l.support, l.echo, l.echo_of])).toEqual([
      ['in', story.observation, false, null],
      ['in', story.echo, true, `sup:${story.observation}`],
    ]);
    expect(m.links[1]?.similarity).toBeGreaterThanOrEqual(m.links[1]?.threshold ?? 1);
    expect(m.stored).toMatchObject({ class: 'hypothesis' });
    // The observation's own panel shows the link outwards.
    const o = (await memoryOf(`mem:${story.observation}`)).body.memory;
    expect(o).toMatchObject({ class: 'observation', links: [{ direction: 'out', target: story.hypothesis, other: hypothesis, echo: false }] });
    const after = statSync(story.salience);
    expect([after.size, after.mtimeMs]).toEqual([before.size, before.mtimeMs]);
  });

  it('computes confidence at the T asked for: before its support was observed, nothing supports it', async () => {
    const early = (await memoryOf(hypothesis, '2026-12-01T10:02:00Z')).body.memory;
    expect(early).toMatchObject({ evaluated_at: '2026-12-01T10:02:00Z', confidence: 0, counts: { support_count: 0, distinct_sources: 0 } });
  });

  it('answers null for a proposition that is no memory, and says when no salience was given', async () => {
    expect((await memoryOf('P-not-a-memory')).body).toEqual({ memory: null });
    expect((await memoryOf(`mem:${'0'.repeat(32)}`)).body).toEqual({ memory: null });
    const bare = await serveInspector({ store, port: 0, clock: () => new Date(NOW) });
    try {
      const m = (await get<MemoryAnswer>(`${bare.url}api/memory?id=${encodeURIComponent(hypothesis)}`)).body.memory;
      expect(m).toMatchObject({ class: 'hypothesis', salience: null, salience_from: expect.stringContaining('not available') });
      // Class, confidence, the gate history and promotion are the ledger's: they need no salience.
      expect(m?.gate).toHaveLength(2);
      expect(m?.promoted).toBe(true);
    } finally {
      await bare.close();
    }
  });

  it('refuses a missing id or a bad T with 400 naming the parameter', async () => {
    const missing = await get<{ error: string }>(`${inspector.url}api/memory`);
    expect([missing.status, missing.body.error]).toEqual([400, 'id is required']);
    const badAt = await memoryOf(hypothesis, 'yesterday');
    expect(badAt.status).toBe(400);
    expect(badAt.body.error).toMatch(/^at: /);
  });
});

describe('GET /api/decisions', () => {
  it('lists the decisions that consulted a proposition, with the recorded hold and the hold a later use meets now', async () => {
    const { status, body } = await decisionsOf(`?proposition=${encodeURIComponent(hypothesis)}`);
    expect(status).toBe(200);
    const recorded = await listDecisions(store, { proposition: hypothesis });
    expect(body.items.map((d) => d.decision_id)).toEqual(recorded.map((d) => d.decision_id));
    expect(body.items.map((d) => d.decision_id)).toEqual(story.decisions);
    const [first, second] = body.items;
    // The first run acted; its support was retracted since, so a later use is held until re-evaluation.
    expect(first).toMatchObject({ held: false, recovery: null, action_id: 'remount-nfs', gate: 'test', signed: false });
    expect(first?.consulted).toEqual([
      expect.objectContaining({ proposition_id: hypothesis, receipt_digest: recorded[0]?.record.consulted[0]?.receipt_digest, rule: recorded[0]?.record.rule }),
    ]);
    expect(first?.later_use).toMatchObject({ decision: 'DENY', requirements: [hypothesis], invalidated: { [hypothesis]: 'evidence_refuted' } });
    // The second run was held when it was decided: mayAct alone permitted it, the recovery gate did not.
    expect(second).toMatchObject({ held: true, decision: 'DENY', may_act: recorded[1]?.record.may_act, later_use: null });
    expect(second?.recovery).toMatchObject({ decision: 'DENY', baseline_decision_id: story.decisions[0], requirements: [hypothesis] });
    expect(body.recovery).toEqual({
      proposition_id: hypothesis,
      retracted: [`evidence:sup:${story.observation}`],
      last_retraction_index: expect.any(Number),
      reevaluation: null,
      // The newest snapshot still holds the retracted record: re-evaluating it lifts nothing.
      reevaluation_now: 'BLOCK',
      plans: [expect.objectContaining({ plan_id: story.planId, reason: 'evidence_refuted', held: 1 })],
    });
  });

  it('lists every decision a page at a time, and an empty list for a proposition no decision consulted', async () => {
    const all = (await decisionsOf('')).body;
    expect(all).toMatchObject({ proposition: null, recovery: null, has_more: false });
    expect(all.items.map((d) => d.decision_id)).toEqual(story.decisions);
    const one = (await decisionsOf('?limit=1')).body;
    expect(one.items.map((d) => d.decision_id)).toEqual([story.decisions[0]]);
    expect(one.has_more).toBe(true);
    const next = (await decisionsOf(`?limit=1&after=${one.items[0]?.chain_index}`)).body;
    expect([next.items.map((d) => d.decision_id), next.has_more]).toEqual([[story.decisions[1]], false]);
    const none = (await decisionsOf(`?proposition=mem:${story.echo}`)).body;
    expect(none.items).toEqual([]);
    expect(none.recovery).toMatchObject({ retracted: [], plans: [], reevaluation_now: null });
  });

  it('refuses a bad page with 400 naming the parameter', async () => {
    for (const [query, name] of [
      ['?limit=5000', 'limit'],
      ['?after=-1', 'after'],
      ['?after=x', 'after'],
    ]) {
      const r = await decisionsOf(query as string);
      expect(r.status, query).toBe(400);
      expect(r.body.error).toMatch(new RegExp(`^${name} `));
    }
  });
});

describe('a running inspector', () => {
  it('shows recalls made after it started; recall moves salience, never confidence', async () => {
    const before = (await memoryOf(hypothesis)).body.memory;
    const writer = new SqliteEvidenceStore(story.file);
    const agent = new MemoryLedger(writer, { salience: new JsonlSalienceStore(story.salience), now: () => NOW });
    await agent.recall({ query: 'backup NFS', class: 'hypothesis' });
    agent.close();
    await writer.close();
    const after = (await memoryOf(hypothesis)).body.memory;
    expect(after?.salience?.recall_count).toBe((before?.salience?.recall_count ?? 0) + 1);
    expect(after?.confidence).toBe(before?.confidence);
    expect(readFileSync(story.salience, 'utf8')).toContain(story.hypothesis);
  });
});
