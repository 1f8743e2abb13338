/**
 * The ledger every framework case runs over: three pack fixtures stored in a fresh store, the two
 * instants the cases decide at, and the reference store every store is compared with.
 */
import { loadFixtures } from '@ewp/conformance/pack';
import { type EvidenceStore, MemoryEvidenceStore } from '@ewp/ledger';
import type { StoreFactory } from './store-factories.js';

const fixtures = loadFixtures();
const fixture = (name: string) => structuredClone(fixtures.find((f) => f.name === name)?.view);
/** P-win: ACCEPTED at T0 (verified), TENTATIVE with its 7-day check stale at LATER; P-x: an OPEN conflict; P-old: superseded. */
const STORED = ['08-verified-now', '02-fork-x', '08-superseded'];
export const T0 = new Date('2026-09-21T21:00:00Z');
export const LATER = new Date('2026-10-05T00:00:00Z');

/** Open a store from `factory`, fill it with the fixtures, run `work`, close and remove it. */
export async function withStore<T>(factory: Pick<StoreFactory, 'create' | 'destroy'>, work: (store: EvidenceStore) => Promise<T>): Promise<T> {
  const store = await factory.create();
  try {
    for (const name of STORED) await store.put(fixture(name));
    return await work(store);
  } finally {
    await store.close();
    await factory.destroy?.(store);
  }
}

/** The reference every store is compared with. */
export const REFERENCE: Pick<StoreFactory, 'create'> = { create: () => new MemoryEvidenceStore() };
