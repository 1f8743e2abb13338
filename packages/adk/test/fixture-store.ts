/** A store holding the three pack fixtures the framework cases decide over (P-win, P-x, P-old), and T0. */
import { loadFixtures } from '@ewp/conformance/pack';
import { MemoryEvidenceStore } from '@ewp/ledger';

const fixtures = loadFixtures();
/** P-win ACCEPTED and CURRENT (verified), P-x with an OPEN conflict, P-old superseded. */
const STORED = ['08-verified-now', '02-fork-x', '08-superseded'];
export const T0 = new Date('2026-09-21T21:00:00Z');

export async function fixtureStore(): Promise<MemoryEvidenceStore> {
  const store = new MemoryEvidenceStore();
  for (const name of STORED) await store.put(structuredClone(fixtures.find((f) => f.name === name)?.view));
  return store;
}
