/**
 * `toolApproval` (AI SDK 7) over every store of the framework suite's one list (packages/framework-suite/
 * src/store-factories.ts), each compared with a `MemoryEvidenceStore` and with outcomes known from the
 * fixtures. The SQLite store runs on the built-in node:sqlite here; offline Mem0 needs better-sqlite3
 * built for this Node (the Node 22 lane builds it): without that build it is skipped, saying why.
 */
import { toolApproval } from '@ewp/ai-sdk';
import type { EvidenceStore } from '@ewp/ledger';
import { generateText, stepCountIs, tool } from 'ai';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { REFERENCE, withStore } from '../../framework-suite/src/fixture-ledger.js';
import { GATE_CASES, type GateCase } from '../../framework-suite/src/fixture-ledger.js';
import { mem0SqliteUnavailable } from '../../framework-suite/src/mem0-native.js';
import { closeStoreFactories, STORE_FACTORIES, type StoreFactory } from '../../framework-suite/src/store-factories.js';
import { scriptedModelV4 } from '../test/scripted-model-v4.js';

/** One call through generateText: whether the tool ran, and the approval request or denial it met. */
async function approvedCall(store: EvidenceStore, c: GateCase) {
  const ran: string[] = [];
  const restart = tool({
    description: 'Restart a server',
    inputSchema: z.object({ server: z.string() }),
    execute: async ({ server }) => {
      ran.push(server);
      return { restarted: server };
    },
  });
  const model = scriptedModelV4([{ toolCalls: [{ id: 'c1', name: 'restart', input: { server: 'server01' } }] }, { text: 'done' }]);
  const result = await generateText({
    model,
    tools: { restart },
    toolApproval: toolApproval({
      restart: {
        proposition: c.proposition,
        action: { id: 'restart', kind: 'restart', risk: c.risk, reversible: c.reversible },
        store,
        now: () => c.at,
      },
    }),
    prompt: 'restart server01',
    stopWhen: stepCountIs(3),
  });
  const request = result.content.find((p) => p.type === 'tool-approval-request' && p.isAutomatic !== true);
  const denied = result.content.find((p) => p.type === 'tool-approval-response' && p.approved === false);
  return {
    ran,
    asked: request === undefined ? null : ((request as { reason?: string }).reason ?? '').split(',')[0],
    denied: denied === undefined ? null : ((denied as { reason?: string }).reason ?? '').split(',')[0],
  };
}

const unavailable = mem0SqliteUnavailable();

afterAll(() => closeStoreFactories());
for (const factory of STORE_FACTORIES) {
  describe(`AI SDK 7 toolApproval over ${factory.name}`, () => {
    if (unavailable !== undefined && factory.name === 'mem0-oss') {
      it.skip(`skipped: mem0ai's better-sqlite3 is not built for ${process.version} (${unavailable})`, () => undefined);
      return;
    }
    it('decides every case as over the reference store, and as the fixtures say', async () => {
      const run = (f: Pick<StoreFactory, 'create' | 'destroy'>) =>
        withStore(f, async (store) => {
          const out = [];
          for (const c of GATE_CASES) out.push(await approvedCall(store, c));
          return out;
        });
      const got = await run(factory);
      expect(got).toEqual(await run(REFERENCE));
      expect(got[0]).toEqual({ ran: ['server01'], asked: null, denied: null });
      expect(got[7]).toMatchObject({ ran: [], asked: 'P-win: gate rule medium.stale_tentative_or_irreversible' });
      expect(got[3]).toMatchObject({ ran: [], denied: 'P-x: gate rule high.requires_accepted' });
      expect(got[6]).toMatchObject({
        ran: [],
        denied: expect.stringMatching(/^no stored evidence for P-unknown: nothing warrants this action\. Record some first: ewp_evidence_view_put/),
      });
    });
  });
}
