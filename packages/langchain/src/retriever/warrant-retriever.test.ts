import { loadFixtures } from '@ewp/conformance/pack';
import { MemoryEvidenceStore } from '@ewp/ledger';
import { Document } from '@langchain/core/documents';
import { FakeEmbeddings, FakeVectorStore } from '@langchain/core/utils/testing';
import { describe, expect, it } from 'vitest';
import { WarrantRetriever } from './warrant-retriever.js';

const T = new Date('2026-09-21T21:00:00Z');

async function setup() {
  const ledger = new MemoryEvidenceStore();
  const fixtures = loadFixtures();
  for (const name of ['08-verified-now', '02-fork-x', '08-superseded']) await ledger.put(fixtures.find((f) => f.name === name)!.view);
  const vectors = await FakeVectorStore.fromDocuments(
    [
      new Document({ pageContent: 'server01 runs Windows Server 2022', metadata: { proposition_id: 'P-win', id: 'd-win' } }),
      new Document({ pageContent: 'X holds (disputed)', metadata: { proposition_id: 'P-x', id: 'd-x' } }),
      new Document({ pageContent: 'the old fact', metadata: { proposition_id: 'P-old', id: 'd-old' } }),
      new Document({ pageContent: 'an unrecorded note', metadata: { id: 'd-note' } }),
    ],
    new FakeEmbeddings(),
  );
  return { ledger, inner: vectors.asRetriever({ k: 4 }) };
}

describe('WarrantRetriever', () => {
  it('puts the warrant axes of each document in its metadata', async () => {
    const { ledger, inner } = await setup();
    const retriever = new WarrantRetriever({ retriever: inner, ledger, now: () => T });
    const docs = await retriever.invoke('server');
    expect(docs).toHaveLength(4);
    const byId = Object.fromEntries(docs.map((d) => [d.metadata.id, d.metadata.ewp]));
    expect(byId['d-win']).toMatchObject({ propositionId: 'P-win', acceptance: 'ACCEPTED', verification: 'EXTERNAL', cut: false, unrecorded: false });
    expect(byId['d-x']).toMatchObject({ acceptance: 'TENTATIVE', conflict: 'OPEN' });
    expect(byId['d-old']).toMatchObject({ currency: 'SUPERSEDED' });
    expect(byId['d-note']).toMatchObject({ unrecorded: true, verification: 'NONE', sufficiency: 'DEGRADED' });
    // The original metadata stays.
    expect(docs.find((d) => d.metadata.id === 'd-win')!.metadata.proposition_id).toBe('P-win');
  });

  it('drops or flags documents below the chosen acceptance', async () => {
    const { ledger, inner } = await setup();
    const dropping = new WarrantRetriever({ retriever: inner, ledger, now: () => T, minAcceptance: 'ACCEPTED' });
    expect((await dropping.invoke('server')).map((d) => d.metadata.id)).toEqual(['d-win']);
    const flagging = new WarrantRetriever({ retriever: inner, ledger, now: () => T, minAcceptance: 'ACCEPTED', belowMinAcceptance: 'flag' });
    const flagged = await flagging.invoke('server');
    expect(flagged).toHaveLength(4);
    expect(
      flagged
        .filter((d) => d.metadata.ewp.belowMinAcceptance)
        .map((d) => d.metadata.id)
        .sort(),
    ).toEqual(['d-note', 'd-old', 'd-x']);
  });

  it('makes the kept documents DEGRADED when k cut the result', async () => {
    const { ledger, inner } = await setup();
    const retriever = new WarrantRetriever({ retriever: inner, ledger, now: () => T, k: 2 });
    const docs = await retriever.invoke('server');
    expect(docs).toHaveLength(2);
    for (const d of docs) expect(d.metadata.ewp).toMatchObject({ cut: true, sufficiency: 'DEGRADED' });
    // An ACCEPTED proposition read through a cut result is not ACCEPTED any more.
    const win = await new WarrantRetriever({ retriever: inner, ledger, now: () => T, k: 1 }).invoke('server01 Windows');
    expect(win[0]!.metadata.ewp.acceptance).not.toBe('ACCEPTED');
    const whole = await new WarrantRetriever({ retriever: inner, ledger, now: () => T, k: 4 }).invoke('server');
    expect(whole.every((d) => d.metadata.ewp.cut === false)).toBe(true);
    // The inner retriever's own cut: 4 of k=4 may have been cut.
    const inner4 = await new WarrantRetriever({ retriever: inner, ledger, now: () => T, innerLimit: 4 }).invoke('server');
    expect(inner4.every((d) => d.metadata.ewp.sufficiency === 'DEGRADED')).toBe(true);
  });

  it('refuses bad options with the field name', () => {
    const ledger = new MemoryEvidenceStore();
    const inner = new FakeVectorStore(new FakeEmbeddings()).asRetriever();
    expect(() => new WarrantRetriever({ retriever: inner, ledger, k: 0 })).toThrow(/^k:/);
    expect(() => new WarrantRetriever({ retriever: inner, ledger, minAcceptance: 'HIGH' as never })).toThrow(/^minAcceptance:/);
  });
});
