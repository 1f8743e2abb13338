/**
 * What a store package's fault worker does, whatever the store (run as a child process):
 * - `append <worker> <count> <props>`: `count` extends, round robin over `props` shared propositions;
 * - `entries <worker> <count>`: `count` appends of two ledger entries, one of the worker's own and one
 *   that every worker appends identically (`shared-<i>`);
 * - `ingest <views> <records>`: puts `views` snapshots of `records` records each, printing `ready`
 *   first and `stored <i>` after each.
 */
import type { EvidenceStore } from '../src/evidence-store.js';
import { bigView, evidenceRecord } from './fault-views.js';

export async function runFaultWorkerMode(store: EvidenceStore, mode: string | undefined, rest: string[]): Promise<void> {
  if (mode === 'append') {
    const [worker, count, props] = rest.map(Number) as [number, number, number];
    for (let i = 0; i < count; i += 1) {
      await store.extend(`P-${i % props}`, [{ kind: 'evidence', record: evidenceRecord(`w${worker}-${i}`) }]);
    }
  } else if (mode === 'entries') {
    // Each call: one entry of this worker's own, and one every worker appends identically.
    const [worker, count] = rest.map(Number) as [number, number];
    for (let i = 0; i < count; i += 1) {
      await store.appendEntries([
        { kind: 'memory.store', id: `w${worker}-${i}`, subjects: [`P-${i % 3}`], body: { worker, i } },
        { kind: 'memory.store', id: `shared-${i}`, body: { i } },
      ]);
    }
  } else if (mode === 'ingest') {
    const [views, records] = rest.map(Number) as [number, number];
    process.stdout.write('ready\n');
    for (let i = 0; i < views; i += 1) {
      await store.put(bigView(`P-big-${i}`, records));
      process.stdout.write(`stored ${i}\n`);
    }
  }
}
