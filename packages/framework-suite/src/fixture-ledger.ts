/**
 * The ledger every framework case runs over: three pack fixtures stored in a fresh store, the two
 * instants the cases decide at, and the reference store every store is compared with.
 */
import { loadFixtures } from '@ewp/conformance/pack';
import { type EvidenceStore, MemoryEvidenceStore } from '@ewp/ledger';
import type { GateOptions } from '@ewp/tools';
import type { StoreFactory } from './store-factories.js';

const fixtures = loadFixtures();
const fixture = (name: string) => structuredClone(fixtures.find((f) => f.name === name)?.view);
/** P-win: ACCEPTED at T0 (verified), TENTATIVE with its 7-day check stale at LATER; P-x: an OPEN conflict; P-old: superseded. */
const STORED = ['08-verified-now', '02-fork-x', '08-superseded'];
export const T0 = new Date('2026-09-21T21:00:00Z');
export const LATER = new Date('2026-10-05T00:00:00Z');

/** A gated action on a proposition, decided at `at`. */
export type GateCase = { proposition: string; risk: 'low' | 'medium' | 'high'; reversible: boolean; at: Date };

/**
 * The gate cases every binding decides over the fixtures (the AI SDK 7 suite of the Node 22 lane too).
 * Known outcomes: 0 runs (verified); 1 and 3 are denied (a stale check for an irreversible high-risk
 * action, an open conflict); 6 is denied (no stored evidence); 7 asks (stale, medium risk).
 */
export const GATE_CASES: readonly GateCase[] = [
  { proposition: 'P-win', risk: 'high', reversible: true, at: T0 },
  { proposition: 'P-win', risk: 'high', reversible: false, at: LATER },
  { proposition: 'P-win', risk: 'low', reversible: true, at: LATER },
  { proposition: 'P-x', risk: 'high', reversible: false, at: T0 },
  { proposition: 'P-x', risk: 'low', reversible: true, at: T0 },
  { proposition: 'P-old', risk: 'low', reversible: true, at: T0 },
  { proposition: 'P-unknown', risk: 'low', reversible: true, at: T0 },
  { proposition: 'P-win', risk: 'medium', reversible: true, at: LATER },
];

/**
 * The binding contract of the gate cases: every binding's `gate(tool, options)` (and its middleware,
 * hooks or callbacks) takes the shared camelCase {@link GateOptions} of `@ewp/tools`; the suite gives
 * each the same options for a case, the action named `restart` after the tool.
 */
export function caseGateOptions(store: EvidenceStore, c: GateCase): GateOptions<unknown> & { name: string } {
  return {
    store,
    proposition: c.proposition,
    action: { id: 'restart', kind: 'restart', risk: c.risk, reversible: c.reversible },
    now: () => c.at,
    name: 'restart',
  };
}

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
