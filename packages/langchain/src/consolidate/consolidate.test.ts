import { loadFixtures } from '@ewp/conformance/pack';
import { MissingViewError, MemoryEvidenceStore } from '@ewp/ledger';
import { AIMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import { describe, expect, it } from 'vitest';
import { consolidate } from './consolidate.js';

const T = '2026-09-21T21:00:00+00:00';
const fixtures = loadFixtures();
const fixture = (name: string) => structuredClone(fixtures.find((f) => f.name === name)!.view);

async function ledgerWith(...names: string[]) {
  const ledger = new MemoryEvidenceStore();
  for (const name of names) await ledger.put(fixture(name));
  return ledger;
}

describe('consolidate', () => {
  it('writes a summary assertion with origin summary and derived_from lineage', async () => {
    const ledger = await ledgerWith('08-verified-now', '06-premises');
    const result = await consolidate(ledger, {
      propositionId: 'P-summary',
      sources: ['P-win', 'P-occ'],
      text: 'server01 runs Windows Server 2022; the office is occupied.',
      at: T,
    });
    expect(result.put.status).toBe('stored');
    const view = (await ledger.get('P-summary'))!;
    expect(view.assertions).toHaveLength(1);
    expect(view.assertions[0]!.source).toMatchObject({ origin_type: 'summary', extractor_id: 'ewp.consolidate' });
    expect(view.lineage).toEqual([
      { from_id: 'P-summary', to_id: 'P-win', kind: 'derived_from' },
      { from_id: 'P-summary', to_id: 'P-occ', kind: 'derived_from' },
    ]);
    expect(view.checks).toEqual([]);
    expect(result.warrant.derivedFrom.sort()).toEqual(['P-occ', 'P-win']);
    // A summary of an EXTERNAL, ACCEPTED memory is not itself verified.
    expect(result.sources.find((s) => s.propositionId === 'P-win')!.verification).toBe('EXTERNAL');
    expect(result.warrant).toMatchObject({ verification: 'NONE', acceptance: 'TENTATIVE', conflict: 'NONE', sufficiency: 'SUFFICIENT' });
  });

  it('keeps a disputed memory disputed in the summary', async () => {
    const ledger = await ledgerWith('02-fork-x', '08-verified-now');
    const result = await consolidate(ledger, { propositionId: 'P-sum', sources: ['P-x', 'P-win'], text: 'X holds.', at: T });
    expect(result.warrant.conflict).toBe('OPEN');
    expect(result.warrant.acceptance).not.toBe('ACCEPTED');
    const view = (await ledger.get('P-sum'))!;
    expect(view.conflicts).toEqual([
      { conflict_id: 'inherited:P-x', proposition_ids: ['P-sum', 'P-x'], status: 'open', note: expect.stringContaining('disputed') },
    ]);
  });

  it('carries an implied conflict and a source incompleteness', async () => {
    const ledger = await ledgerWith('implied_conflict_without_row');
    const implied = await consolidate(ledger, { propositionId: 'P-s1', sources: ['P-door'], text: 'The door is open.', at: T });
    expect(implied.warrant.conflict).toBe('OPEN');
    const degradedLedger = await ledgerWith('04-retrieval-degraded');
    const degraded = await consolidate(degradedLedger, { propositionId: 'P-s2', sources: ['P-x'], text: 'X.', at: T });
    expect(degraded.warrant.sufficiency).toBe('DEGRADED');
  });

  it('writes the summary with a model that sees each source status', async () => {
    const ledger = await ledgerWith('02-fork-x');
    const model = fakeModel().respond(new AIMessage('It is disputed whether X holds.'));
    const result = await consolidate(ledger, { propositionId: 'P-sum', sources: ['P-x'], model, at: T });
    expect(result.assertion.text).toBe('It is disputed whether X holds.');
    expect(model.callCount).toBe(1);
    const prompt = model.calls[0]!.messages.map((m) => String(m.content)).join('\n');
    expect(prompt).toContain('conflict=OPEN');
    expect(result.warrant.conflict).toBe('OPEN');
  });

  it('appends a later summary to an existing summary proposition', async () => {
    const ledger = await ledgerWith('02-fork-x', '08-verified-now');
    await consolidate(ledger, { propositionId: 'P-sum', sources: ['P-win'], text: 'Windows.', at: T });
    const second = await consolidate(ledger, { propositionId: 'P-sum', sources: ['P-x'], text: 'X is disputed.', at: T });
    const view = (await ledger.get('P-sum'))!;
    expect(view.assertions.map((a) => a.text)).toEqual(['Windows.', 'X is disputed.']);
    expect(view.lineage.map((l) => l.to_id)).toEqual(['P-win', 'P-x']);
    expect(second.warrant.conflict).toBe('OPEN');
    expect((await ledger.listSnapshots('P-sum')).length).toBe(2);
  });

  it('refuses bad input with a typed error and writes nothing', async () => {
    const ledger = await ledgerWith('02-fork-x');
    await expect(consolidate(ledger, { propositionId: 'P-s', sources: ['P-x', 'P-none'], text: 't' })).rejects.toBeInstanceOf(MissingViewError);
    await expect(consolidate(ledger, { propositionId: 'P-x', sources: ['P-x'], text: 't' })).rejects.toThrow(/sources/);
    await expect(consolidate(ledger, { propositionId: 'P-s', sources: [], text: 't' })).rejects.toThrow(/sources/);
    await expect(consolidate(ledger, { propositionId: 'P-s', sources: ['P-x'] })).rejects.toThrow(/text, model/);
    await expect(consolidate(ledger, { propositionId: '', sources: ['P-x'], text: 't' })).rejects.toThrow(/propositionId/);
    expect(await ledger.get('P-s')).toBeUndefined();
  });
});
