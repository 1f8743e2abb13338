/**
 * What a store package's fault worker does, whatever the store (run as a child process):
 * - `append <worker> <count> <props>`: `count` extends, round robin over `props` shared propositions;
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
  } else if (mode === 'ingest') {
    const [views, records] = rest.map(Number) as [number, number];
    process.stdout.write('ready\n');
    for (let i = 0; i < views; i += 1) {
      await store.put(bigView(`P-big-${i}`, records));
      process.stdout.write(`stored ${i}\n`);
    }
  }
}
