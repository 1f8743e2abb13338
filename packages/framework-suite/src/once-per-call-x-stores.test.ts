/**
 * A guarded run executes one framework call once, over every store of the one list: concurrent runs
 * of one call id (a resumed approval replayed while the first still runs) each decide and record, and
 * exactly one executes; the claim on the call is one ledger entry, written with the decision's
 * execution claim in one `appendEntries` (the store's one write lock, a PostgreSQL row lock, a
 * SQLite `BEGIN IMMEDIATE`, a commit record).
 */
import type { EvidenceStore } from '@ewp/ledger';
import { openPostgresStore, type PostgresEvidenceStore } from '@ewp/postgres';
import { callClaimId, DECISION_ENTRY_KINDS, DecisionError, type GuardedRun, runGuarded } from '@ewp/tools';
import { afterAll, describe, expect, it } from 'vitest';
import { withStore } from './fixture-ledger.js';
import { closeStoreFactories, STORE_FACTORIES } from './store-factories.js';

afterAll(() => closeStoreFactories());

const T0 = Date.parse('2026-09-21T21:00:00Z'); // P-win is ACCEPTED and CURRENT
const restart = { id: 'restart', kind: 'restart', risk: 'high' as const, reversible: true };

/** Four runs of one call id at once, spread over `handles` (of one ledger); what the ledger says after. */
async function race(handles: readonly EvidenceStore[]) {
  let executed = 0;
  const runs = [0, 1, 2, 3].map((i) =>
    runGuarded(
      // Each decides at its own T: four decisions, one call.
      {
        store: handles[i % handles.length] as EvidenceStore,
        proposition: 'P-win',
        action: restart,
        now: () => new Date(T0 + i * 60_000),
      },
      { server: 'server01' },
      // One framework call: the suite's gate name and the call's id, as a binding passes them.
      { gate: 'suite', tool: 'restart', callId: 'call-1' },
      async () => {
        executed += 1;
        await new Promise((resolve) => setTimeout(resolve, 10));
        return 'restarted';
      },
    ),
  );
  const settled = await Promise.allSettled(runs);
  expect(executed).toBe(1);
  const done = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value as GuardedRun<string>] : []));
  expect(done.map((r) => r.status)).toEqual(['executed']);
  const refused = settled.flatMap((s) => (s.status === 'rejected' ? [s.reason as unknown] : []));
  expect(refused.map((e) => DecisionError.isInstance(e) && e.code)).toEqual(Array(3).fill('EWP_REFUSE_DECISION_NOT_EXECUTABLE'));
  const store = handles[0] as EvidenceStore;
  const claims = await store.readEntries({ kind: DECISION_ENTRY_KINDS.call });
  expect(claims.map((c) => [c.id, c.body.decision_id])).toEqual([[callClaimId('suite', 'call-1'), done[0]?.decisionId]]);
  const outcomes = (await store.readEntries({ kind: DECISION_ENTRY_KINDS.outcome })).map((e) => e.body.status);
  expect(outcomes.sort()).toEqual(['call_already_executed', 'call_already_executed', 'call_already_executed', 'succeeded']);
  expect((await store.verifyChain()).ok).toBe(true);
}

for (const factory of STORE_FACTORIES) {
  describe(`once per call, over the ${factory.name} store`, () => {
    it('four concurrent runs of one call id: one executes, three are refused with a typed error and recorded', async () => {
      await withStore(factory, (store) => race([store]));
    });

    if (factory.name === 'postgres') {
      it('the same over two handles of one PostgreSQL ledger (two pools, as two processes would hold)', async () => {
        await withStore(factory, async (store) => {
          const second = await openPostgresStore({ schema: (store as PostgresEvidenceStore).schema, maxConnections: 2 });
          try {
            await race([store, second]);
          } finally {
            await second.close();
          }
        });
      });
    }
  });
}
