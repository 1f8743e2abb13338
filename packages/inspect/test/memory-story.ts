/**
 * A real SQLite ledger written by @ewp/memory's MemoryLedger and @ewp/tools' guarded runs, for the
 * inspector's tests: a hypothesis recalled until the promotion gate refuses it, an observation
 * linked as its support, the same observation re-stored as an echo, a recall that then passes the
 * gate; an action decided on the memory, a retraction of its support, a second run held by the
 * recovery gate, and a recorded recovery plan. Salience is kept in `<ledger>.salience.jsonl`.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JsonlSalienceStore, MemoryLedger } from '@ewp/memory';
import { SqliteEvidenceStore } from '@ewp/sqlite';
import { planLedgerRecovery, recordRetraction, runGuarded } from '@ewp/tools';

export interface MemoryStory {
  file: string;
  salience: string;
  hypothesis: string;
  observation: string;
  echo: string;
  /** The two recorded decisions: the first run, and the second, held. */
  decisions: [string, string];
  /** What the second run's recovery gate required. */
  planId: string;
}

/** Writes the story into a fresh ledger and closes it. */
export async function memoryStory(): Promise<MemoryStory> {
  const file = join(mkdtempSync(join(tmpdir(), 'ewp-inspect-memory-')), 'ewp.sqlite');
  const salience = `${file}.salience.jsonl`;
  const store = new SqliteEvidenceStore(file);
  let clock = Date.parse('2026-12-01T10:00:00Z');
  const now = () => {
    clock += 60_000;
    return new Date(clock);
  };
  const memory = new MemoryLedger(store, { salience: new JsonlSalienceStore(salience), now: () => now().toISOString() });

  const h = await memory.store({ text: 'The nightly backup fails because the NFS mount is slow', class: 'hypothesis' });
  // Five recalls reach the promotion energy: a hypothesis with no evidence is refused.
  for (let i = 0; i < memory.config.promotion_energy; i += 1) await memory.recall({ query: 'backup NFS', class: 'hypothesis' });
  const o = await memory.store({
    text: 'The backup log shows NFS mount timeouts at 02:00 (read from the scheduler)',
    class: 'observation',
    source: 'scheduler',
    supports: [h.hash],
  });
  // The same source says the same thing again: an echo, which adds no source.
  const e = await memory.store({
    text: 'the backup log shows NFS mount timeouts at 02:00, read from the scheduler.',
    class: 'observation',
    source: 'scheduler',
    supports: [h.hash],
  });
  // Recalled again on new evidence: the gate is asked again, and lets it through.
  await memory.recall({ query: 'backup NFS', class: 'hypothesis' });
  memory.close();

  const gate = {
    store,
    proposition: `mem:${h.hash}`,
    action: { id: 'remount-nfs', kind: 'remount', risk: 'low' as const, reversible: true },
    now,
  };
  // A call of the `test` gate with no framework call id (each run is a decision of its own).
  const call = { gate: 'test', tool: 'remount', callId: undefined };
  const first = await runGuarded(gate, {}, call, () => 'remounted');
  await recordRetraction(store, {
    proposition_id: `mem:${h.hash}`,
    records: [`evidence:sup:${o.hash}`],
    note: 'the log was of another host',
    at: now().toISOString(),
  });
  const second = await runGuarded(gate, {}, call, () => 'remounted');
  const plan = await planLedgerRecovery(store, { record: true });
  await store.close();
  return {
    file,
    salience,
    hypothesis: h.hash,
    observation: o.hash,
    echo: e.hash,
    decisions: [first.decisionId as string, second.decisionId as string],
    planId: plan.plan_id as string,
  };
}
