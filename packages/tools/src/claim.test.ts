import { InvalidArgumentError } from '@ewp/core';
import { MemoryEvidenceStore } from '@ewp/ledger';
import { describe, expect, it } from 'vitest';
import { claimProposition, recordObservation } from './claim.js';
import { decideGate } from './gate-decision.js';

const call = { gate: 'library', tool: 'restart', callId: undefined };

describe('claims and observations', () => {
  it('a tool result lands on the claim the gate reads: low risk may act, an irreversible high-risk action needs more than one observation', async () => {
    const store = new MemoryEvidenceStore();
    const claim = 'server01 is healthy';
    const before = await decideGate({ store, claim }, {}, call);
    expect(before.decision).toBe('DENY');
    expect(before.warrant).toBeUndefined();
    const r = await recordObservation({ store, claim, tool: 'health_check', result: { ok: true, server: 'server01' }, supports: true });
    expect(r).toMatchObject({ propositionId: claimProposition(claim), polarity: 'supports', source: 'tool:health_check', stored: true });
    const view = await store.get(r.propositionId);
    expect(view?.evidence).toHaveLength(1);
    expect(view?.evidence[0]?.source.origin_type).toBe('tool');
    expect(view?.assertions).toEqual([]);
    const low = await decideGate({ store, claim }, {}, call);
    expect(low).toMatchObject({ decision: 'MAY_ACT', claim, action: { id: 'restart', kind: 'restart', risk: 'low', reversible: true } });
    const high = await decideGate({ store, claim, action: { risk: 'high', reversible: false } }, {}, call);
    expect(high.decision).toBe('DENY');
    expect(high.rule?.id).toBe('high.requires_accepted');
  });

  it('the same result of the same tool is one observation; a refutation alone never warrants acting; both open the conflict', async () => {
    const store = new MemoryEvidenceStore();
    const claim = 'the disk has room';
    const refuted = await recordObservation({ store, claim, tool: 'df', result: '99% used', supports: false });
    expect(refuted.polarity).toBe('opposes');
    const onlyRefuted = await decideGate({ store, claim }, {}, call);
    expect(onlyRefuted.decision).toBe('DENY');
    expect(onlyRefuted.warrant?.warrant.acceptance).toBe('UNACCEPTED');
    const first = await recordObservation({ store, claim, tool: 'df', result: '40% used', supports: true });
    const again = await recordObservation({ store, claim, tool: 'df', result: '40% used', supports: true });
    expect(first.stored).toBe(true);
    expect(again).toMatchObject({ stored: false, observation: first.observation, viewId: first.viewId });
    const view = await store.get(first.propositionId);
    expect(view?.evidence.map((e) => e.polarity).sort()).toEqual(['opposes', 'supports']);
    expect(view?.assertions).toEqual([]);
    expect(view?.adapter_meta).toEqual({ claim, project: null });
    const both = await decideGate({ store, claim }, {}, call);
    expect(both.warrant?.warrant.conflict).toBe('OPEN');
  });

  it('two writers racing on the first observation of a claim both land', async () => {
    const store = new MemoryEvidenceStore();
    const claim = 'queue is drained';
    await Promise.all([
      recordObservation({ store, claim, tool: 'probe_a', result: 0, supports: true }),
      recordObservation({ store, claim, tool: 'probe_b', result: 0, supports: true }),
    ]);
    const view = await store.get(claimProposition(claim));
    expect(view?.evidence.map((e) => e.source.origin_locator).sort()).toEqual(['tool:probe_a', 'tool:probe_b']);
  });

  it('the same words in two projects are two claims', () => {
    expect(claimProposition('x is up', { project: 'a' })).not.toBe(claimProposition('x is up', { project: 'b' }));
    expect(claimProposition('x is up')).toMatch(/^claim:[0-9a-f]{32}$/);
  });

  it('refuses a malformed observation by field, writing nothing', async () => {
    const store = new MemoryEvidenceStore();
    const cases = [
      [{ claim: ' ', tool: 't', supports: true }, 'claim'],
      [{ claim: 'c', tool: 'bad name', supports: true }, 'tool'],
      [{ claim: 'c', tool: 't', supports: 'yes' }, 'supports'],
    ] as const;
    for (const [o, path] of cases) {
      const e = await recordObservation({ store, result: 1, ...(o as unknown as { claim: string; tool: string; supports: boolean }) }).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(InvalidArgumentError);
      expect((e as InvalidArgumentError).path).toBe(path);
    }
    expect(await store.readEntries({})).toEqual([]);
  });
});
