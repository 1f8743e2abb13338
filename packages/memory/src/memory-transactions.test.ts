import { MemoryEvidenceStore } from '@ewp/ledger';
import { describe, expect, it } from 'vitest';
import { MemoryError } from './errors.js';
import { MemoryLedger } from './memory-ledger.js';

const T = '2026-12-01T12:00:00Z';

async function refusal(p: Promise<unknown>): Promise<{ code: string; path: string | undefined }> {
  try {
    await p;
  } catch (e) {
    if (MemoryError.isInstance(e)) return { code: e.code, path: e.path };
    throw e;
  }
  throw new Error('expected a refusal');
}

/** Everything a refused write must leave as it was. */
async function ledgerState(memory: MemoryLedger) {
  const props = await memory.evidenceStore.listPropositions({ limit: 1000 });
  return {
    views: props.map((p) => `${p.proposition_id}@${p.latest_view_id}`).sort(),
    entries: (await memory.evidenceStore.readEntries({ limit: 1000 })).length,
    chain: (await memory.evidenceStore.verifyChain()).length,
  };
}

describe('multi-step writes are one transaction', () => {
  it('store with supports [A, B]: a B that refuses the link leaves nothing written, and the refusal names supports[1]', async () => {
    const memory = new MemoryLedger(new MemoryEvidenceStore(), { now: () => T });
    const a = await memory.store({ text: 'The 02:00 backup of db-1 is incomplete', class: 'hypothesis', source: 'agent' });
    const b = await memory.store({ text: 'The backup volume of db-1 is nearly full', class: 'hypothesis', source: 'agent' });
    const log = await memory.store({ text: 'Backup log: wrote 0 of 40 GB', class: 'observation', source: 'backup-log' });
    await memory.refute(log.hash, b.hash);
    const before = await ledgerState(memory);
    // The same memory again, now as support of A and of B, which it refutes: refused before any write.
    expect(
      await refusal(memory.store({ text: 'Backup log: wrote 0 of 40 GB', class: 'observation', source: 'backup-log', supports: [a.hash, b.hash] })),
    ).toEqual({ code: 'EWP_REFUSE_MEMORY_LINK_CONFLICT', path: 'supports[1]' });
    expect(await ledgerState(memory)).toEqual(before);
    expect((await memory.show(a.hash)).support_count).toBe(0);
    // A new memory with an unknown second target: nothing stored either.
    expect(await refusal(memory.store({ text: 'Disk df: 99% used', class: 'observation', source: 'df', supports: [a.hash, '0'.repeat(32)] }))).toEqual({
      code: 'EWP_REFUSE_MEMORY_UNKNOWN',
      path: 'supports[1]',
    });
    expect(await ledgerState(memory)).toEqual(before);
    // Both links accepted: the memory, its two links and their events are one commit.
    const ok = await memory.store({ text: 'Disk df: 99% used', class: 'observation', source: 'df', supports: [a.hash, b.hash] });
    expect(ok.links.map((l) => [l.target, l.status])).toEqual([
      [a.hash, 'linked'],
      [b.hash, 'linked'],
    ]);
    const kinds = (await memory.evidenceStore.readEntries({ limit: 1000 })).slice(before.entries).map((e) => e.kind);
    expect(kinds).toEqual(['memory.store', 'memory.link', 'memory.link']);
  });

  it('readBack stores every changed line or none: a line that would change a class refuses the file', async () => {
    const memory = new MemoryLedger(new MemoryEvidenceStore(), { now: () => T });
    // An observation whose text and source a read-back line would repeat as an inference.
    await memory.store({ text: 'db-1 is slow after 02:00', class: 'observation', source: 'memory.md' });
    const before = await ledgerState(memory);
    const file = ['# MEMORY.md', '', '- The cache is cold after deploys', '- db-1 is slow after 02:00', '- The cron table lost its backup entry'].join('\n');
    expect(await refusal(memory.readBack(file))).toEqual({ code: 'EWP_REFUSE_MEMORY_CLASS_CONFLICT', path: 'markdown.lines[1]' });
    expect(await ledgerState(memory)).toEqual(before);
    // Without that line, both are stored in one commit; a repeated line is one memory.
    const r = await memory.readBack(`${file.replace('- db-1 is slow after 02:00\n', '')}\n- The cache is cold after deploys\n`);
    expect(r.asserted.map((m) => [m.class, m.status])).toEqual([
      ['inference', 'stored'],
      ['inference', 'stored'],
      ['inference', 'unchanged'],
    ]);
    expect((await ledgerState(memory)).entries).toBe(before.entries + 2);
  });
});
