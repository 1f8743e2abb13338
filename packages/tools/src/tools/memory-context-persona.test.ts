/** `ewp_memory_context` for a memory of the evidence layer: persona carries class, confidence and salience beside the warrant. */
import { MemoryEvidenceStore } from '@ewp/ledger';
import { memoryLedgerFor } from '@ewp/memory';
import { describe, expect, it } from 'vitest';
import { TOOL_SPECS } from '@ewp/spec/tools';
import { runTool, toolContext } from '../toolset.js';

const T = '2026-12-01T12:00:00Z';

describe('ewp_memory_context persona', () => {
  it('fills persona for a memory (class, confidence, salience) and leaves it null for another proposition', async () => {
    const store = new MemoryEvidenceStore();
    const now = () => new Date(T);
    const memory = memoryLedgerFor(store, now);
    const h = await memory.store({ text: 'The scheduler is misconfigured on every host', class: 'hypothesis' });
    for (let i = 0; i < 3; i += 1) await memory.recall({ query: 'scheduler' });
    await memory.store({ text: 'NTP reports a 10 minute drift on host eu-3', class: 'observation', source: 'ntp', supports: [h.hash] });
    const context = toolContext({ store, now });
    const out = await runTool('ewp_memory_context', { proposition_id: h.proposition_id, evaluated_at: T }, context);
    expect(out.ok).toBe(true);
    const value = out.ok ? out.value : undefined;
    expect(value?.persona).toMatchObject({
      memory: h.hash,
      class: 'hypothesis',
      confidence: 48,
      distinct_sources: 1,
      salience: { recall_count: 3, importance: 0 },
    });
    expect(value?.warrant.acceptance).toBe('TENTATIVE');
    expect(TOOL_SPECS.ewp_memory_context.output.parse(value)).toEqual(value);
    await store.put({ proposition_id: 'P-other', assertions: [] });
    const other = await runTool('ewp_memory_context', { proposition_id: 'P-other', evaluated_at: T }, context);
    expect(other.ok && other.value.persona).toBeNull();
  });
});
