import { gate as aiSdkGate } from '@ewp/ai-sdk';
import { type Action, mayAct, REFERENCE_V2, warrantNow } from '@ewp/core';
import { gate as agentsGate } from '@ewp/openai-agents';
import { WarrantRetriever } from '@ewp/langchain';
import type { EvidenceStore } from '@ewp/ledger';
import { runToolContract } from '@ewp/tools/testing';
import { Document } from '@langchain/core/documents';
import { FakeEmbeddings, FakeVectorStore } from '@langchain/core/utils/testing';
import { run } from '@openai/agents-core';
import { generateText, stepCountIs, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { aiSdkContractBinding } from '../../ai-sdk/test/contract-binding.js';
import { scriptedModel } from '../../ai-sdk/test/scripted-model.js';
import { langGraphContractBinding } from '../../langchain/test/contract-binding.js';
import { mcpInMemoryContractBinding } from '../../mcp/test/contract-caller.js';
import { openAiAgentsContractBinding } from '../../openai-agents/test/contract-binding.js';
import { agentWith, restartModel, restartTool, toolOutputs } from '../../openai-agents/test/scripted-agent.js';
import { adkContractBinding } from '../../adk/test/contract-binding.js';
import { adkGatedCall } from '../../adk/test/gated-call.js';
import { caseGateOptions, GATE_CASES, type GateCase, REFERENCE, T0, withStore } from './fixture-ledger.js';
import type { StoreFactory } from './store-factories.js';

/** Numbers the gated calls: each case's model call id is its own. */
let callNo = 0;

/** One gated call through `generateText`: whether the tool ran, what the model got, whether approval was asked. */
async function gatedCall(store: EvidenceStore, c: GateCase) {
  const calls: string[] = [];
  const restart = tool({
    description: 'Restart a server',
    inputSchema: z.object({ server: z.string() }),
    outputSchema: z.object({ restarted: z.string() }),
    execute: async ({ server }) => {
      calls.push(server);
      return { restarted: server };
    },
  });
  const gated = aiSdkGate(restart, caseGateOptions(store, c));
  // Each case is a call of its own: its own call id (a gate runs one call id once per ledger).
  const model = scriptedModel([{ toolCalls: [{ id: `case-${++callNo}`, name: 'restart', input: { server: 'server01' } }] }, { text: 'done' }]);
  const result = await generateText({ model, tools: { restart: gated }, prompt: 'restart server01', stopWhen: stepCountIs(3) });
  return {
    calls,
    output: JSON.parse(JSON.stringify(result.steps[0]?.toolResults[0]?.output ?? null)) as unknown,
    approvalRequested: result.content.some((p) => p.type === 'tool-approval-request'),
  };
}

/** The same gated call through the OpenAI Agents SDK runner (its `gate`, a `ScriptedModel`). */
async function agentsGatedCall(store: EvidenceStore, c: GateCase) {
  const calls: string[] = [];
  const gated = agentsGate(restartTool(calls), caseGateOptions(store, c));
  const result = await run(agentWith(gated, restartModel(['server01'], 'done', `case-${++callNo}`)), 'restart server01');
  const raw = toolOutputs(result)[0];
  return {
    calls,
    output: typeof raw === 'string' && raw.startsWith('{') ? (JSON.parse(raw) as unknown) : (raw ?? null),
    approvalRequested: result.interruptions.length > 0,
  };
}

/** `mayAct` over the warrant of the stored view at the case's T; nothing stored is DENY. */
async function mayActOver(store: EvidenceStore, c: GateCase) {
  const view = await store.get(c.proposition);
  const action: Action = { action_id: 'restart', kind: 'restart', risk: c.risk, reversible: c.reversible };
  return view === undefined ? 'DENY' : mayAct(warrantNow(view, REFERENCE_V2, c.at.toISOString()), action);
}

/**
 * A gate outcome without its `decisionId`: the id names one recorded decision in one ledger, so the
 * same decision over two stores has two ids.
 */
export function withoutDecisionId<T extends { output: unknown }>(outcome: T): T {
  if (outcome.output === null || typeof outcome.output !== 'object' || !('decisionId' in outcome.output)) return outcome;
  const { decisionId: _id, ...output } = outcome.output as Record<string, unknown>;
  return { ...outcome, output };
}

async function retrieved(store: EvidenceStore, options: { k?: number; minAcceptance?: 'ACCEPTED'; flag?: boolean } = {}) {
  const vectors = await FakeVectorStore.fromDocuments(
    [
      new Document({ pageContent: 'server01 runs Windows Server 2022', metadata: { proposition_id: 'P-win', id: 'd-win' } }),
      new Document({ pageContent: 'X holds (disputed)', metadata: { proposition_id: 'P-x', id: 'd-x' } }),
      new Document({ pageContent: 'the old fact', metadata: { proposition_id: 'P-old', id: 'd-old' } }),
      new Document({ pageContent: 'an unrecorded note', metadata: { id: 'd-note' } }),
    ],
    new FakeEmbeddings(),
  );
  const retriever = new WarrantRetriever({
    retriever: vectors.asRetriever({ k: 4 }),
    ledger: store,
    now: () => T0,
    ...(options.k === undefined ? {} : { k: options.k }),
    ...(options.minAcceptance === undefined ? {} : { minAcceptance: options.minAcceptance, belowMinAcceptance: options.flag ? 'flag' : 'drop' }),
  });
  const docs = await retriever.invoke('server');
  return docs
    .map((d) => ({ id: d.metadata.id as string, content: d.pageContent, ewp: d.metadata.ewp as Record<string, unknown> }))
    .sort((a, b) => (a.id < b.id ? -1 : 1));
}

/** Register every framework entry point over ledgers from `factory`. */
export function runFrameworkConformance(factory: StoreFactory): void {
  describe(`frameworks over ${factory.name}`, () => {
    for (const binding of [aiSdkContractBinding, langGraphContractBinding, mcpInMemoryContractBinding, openAiAgentsContractBinding, adkContractBinding])
      runToolContract(binding, factory);

    for (const [name, call, ran] of [
      ['AI SDK gate', gatedCall, { restarted: 'server01' }],
      ['OpenAI Agents gate', agentsGatedCall, 'restarted server01'],
    ] as const) {
      describe(name, () => {
        it('decides every case as over the reference store, and as the fixtures say', async () => {
          const got = await withStore(factory, async (store) => Promise.all(GATE_CASES.map((c) => call(store, c))));
          const want = await withStore(REFERENCE, async (store) => Promise.all(GATE_CASES.map((c) => call(store, c))));
          expect(got.map(withoutDecisionId)).toEqual(want.map(withoutDecisionId));
          // Known outcomes: a verified claim runs; an open conflict and an unknown claim are denied.
          expect(got[0]).toMatchObject({ calls: ['server01'], output: ran, approvalRequested: false });
          expect(got[3]).toMatchObject({ calls: [], output: { ewpGate: 'DENY', propositionId: 'P-x', acceptance: 'TENTATIVE', conflict: 'OPEN' } });
          expect(got[6]).toMatchObject({ calls: [], output: { ewpGate: 'DENY', viewId: null } });
        });
      });
    }

    describe('Google ADK warrantCallbacks', () => {
      it('decides every case as over the reference store, and as mayAct over the stored warrant', async () => {
        const got = await withStore(factory, async (store) => {
          const out = [];
          // One at a time: each case is a run of its own through ADK's runner.
          for (const c of GATE_CASES) out.push({ ...(await adkGatedCall(store, c)), want: await mayActOver(store, c) });
          return out;
        });
        const want = await withStore(REFERENCE, async (store) => {
          const out = [];
          for (const c of GATE_CASES) out.push({ ...(await adkGatedCall(store, c)), want: await mayActOver(store, c) });
          return out;
        });
        expect(got.map(withoutDecisionId)).toEqual(want.map(withoutDecisionId));
        expect(got.map((g) => g.decision)).toEqual(got.map((g) => g.want));
        expect(got.map((g) => g.decision)).toEqual([
          'MAY_ACT',
          'DENY',
          'MAY_ACT',
          'DENY',
          'REQUIRE_CONFIRMATION',
          'REQUIRE_CONFIRMATION',
          'DENY',
          'REQUIRE_CONFIRMATION',
        ]);
        expect(got[0]).toMatchObject({ calls: ['server01'], output: { restarted: 'server01' }, verdict: 'ALLOW' });
        expect(got[3]).toMatchObject({ calls: [], output: { ewpGate: 'DENY', propositionId: 'P-x', conflict: 'OPEN' }, verdict: 'BLOCK' });
        expect(got[6]).toMatchObject({ calls: [], output: { ewpGate: 'DENY', viewId: null } });
      });
    });

    describe('LangChain WarrantRetriever', () => {
      it('puts the same warrant on every document as over the reference store', async () => {
        for (const options of [{}, { k: 2 }, { minAcceptance: 'ACCEPTED' as const }, { minAcceptance: 'ACCEPTED' as const, flag: true }]) {
          const got = await withStore(factory, (store) => retrieved(store, options));
          const want = await withStore(REFERENCE, (store) => retrieved(store, options));
          expect(got, JSON.stringify(options)).toEqual(want);
        }
        const all = await withStore(factory, (store) => retrieved(store));
        const byId = Object.fromEntries(all.map((d) => [d.id, d.ewp]));
        expect(byId['d-win']).toMatchObject({ propositionId: 'P-win', acceptance: 'ACCEPTED', verification: 'EXTERNAL', unrecorded: false });
        expect(byId['d-x']).toMatchObject({ acceptance: 'TENTATIVE', conflict: 'OPEN' });
        expect(byId['d-old']).toMatchObject({ currency: 'SUPERSEDED' });
        expect(byId['d-note']).toMatchObject({ unrecorded: true });
      });
    });
  });
}
