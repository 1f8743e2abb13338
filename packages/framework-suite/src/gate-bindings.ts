/**
 * The warrant-gate bindings over one store: LangChain `warrantMiddleware` in a real `createAgent`, and
 * the Claude Code / Agent SDK decision (`toolCallPermission`, which `ewp hook pre-tool-use`,
 * `warrantCanUseTool` and `warrantPreToolUseHook` all answer with). Each case is compared with the same
 * binding over a `MemoryEvidenceStore` (the reference) and with outcomes known from the fixtures.
 */
import { parseToolMapping, toolCallPermission } from '@ewp/claude-code';
import { warrantMiddleware } from '@ewp/langchain/middleware';
import type { EvidenceStore } from '@ewp/ledger';
import { tool } from '@langchain/core/tools';
import { MemorySaver } from '@langchain/langgraph';
import { createAgent, FakeToolCallingModel } from 'langchain';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { caseGateOptions, GATE_CASES, type GateCase, REFERENCE, withStore } from './fixture-ledger.js';
import type { StoreFactory } from './store-factories.js';

let thread = 0;

/** One gated call through createAgent: whether the tool ran, and the refusal or the interrupt it met. */
async function middlewareCall(store: EvidenceStore, c: GateCase) {
  const ran: string[] = [];
  const restart = tool(
    async ({ server }: { server: string }) => {
      ran.push(server);
      return `restarted ${server}`;
    },
    { name: 'restart', description: 'Restart a server', schema: z.object({ server: z.string() }) },
  );
  const middleware = warrantMiddleware({ restart: caseGateOptions(store, c) });
  // Each case is a call of its own, on a thread of its own, with its own call id (a gate runs one call id once per ledger).
  const id = `fw-${++thread}`;
  const model = new FakeToolCallingModel({ toolCalls: [[{ name: 'restart', args: { server: 'server01' }, id }], []] });
  const agent = createAgent({ model, tools: [restart], middleware: [middleware], checkpointer: new MemorySaver() });
  const out = (await agent.invoke({ messages: [{ role: 'user', content: 'restart server01' }] }, { configurable: { thread_id: id } })) as {
    messages: { getType?: () => string; content?: unknown }[];
    __interrupt__?: { value: unknown }[];
  };
  const answer = out.messages.find((m) => m.getType?.() === 'tool')?.content;
  const gate = (value: unknown) => {
    const v = (typeof value === 'string' && value.startsWith('{') ? JSON.parse(value) : value) as Record<string, unknown> | undefined;
    return v && typeof v === 'object' ? { ewpGate: v.ewpGate, acceptance: v.acceptance, conflict: v.conflict, currency: v.currency } : v;
  };
  return { ran, answer: gate(answer), interrupt: gate(out.__interrupt__?.[0]?.value) };
}

const MAPPING = (c: GateCase) =>
  parseToolMapping({
    tools: [{ match: 'mcp__ops__restart', proposition: c.proposition, action: { kind: 'restart', risk: c.risk, reversible: c.reversible } }],
  });

async function claudePermission(store: EvidenceStore, c: GateCase) {
  return toolCallPermission('mcp__ops__restart', { server: 'server01' }, { mapping: MAPPING(c), store, now: () => c.at });
}

/** Register the gate bindings over ledgers from `factory`. */
export function runGateBindingConformance(factory: StoreFactory): void {
  describe(`warrant gate bindings over ${factory.name}`, () => {
    it('LangChain warrantMiddleware decides every case as over the reference store, and as the fixtures say', async () => {
      const got = await withStore(factory, async (store) => {
        const out = [];
        for (const c of GATE_CASES) out.push(await middlewareCall(store, c));
        return out;
      });
      const want = await withStore(REFERENCE, async (store) => {
        const out = [];
        for (const c of GATE_CASES) out.push(await middlewareCall(store, c));
        return out;
      });
      expect(got).toEqual(want);
      expect(got[0]).toMatchObject({ ran: ['server01'], answer: 'restarted server01' });
      expect(got[7]).toMatchObject({ ran: [], interrupt: { ewpGate: 'REQUIRE_CONFIRMATION', currency: 'STALE' } });
      expect(got[3]).toMatchObject({ ran: [], answer: { ewpGate: 'DENY', conflict: 'OPEN' } });
      expect(got[6]).toMatchObject({ ran: [], answer: { ewpGate: 'DENY', acceptance: null } });
    });

    it('Claude Code toolCallPermission (hook, canUseTool) decides every case as over the reference store', async () => {
      const got = await withStore(factory, (store) => Promise.all(GATE_CASES.map((c) => claudePermission(store, c))));
      const want = await withStore(REFERENCE, (store) => Promise.all(GATE_CASES.map((c) => claudePermission(store, c))));
      expect(got).toEqual(want);
      expect(got.map((p) => p.decision)).toEqual(['allow', 'deny', 'allow', 'deny', 'ask', 'ask', 'deny', 'ask']);
      expect(got[6]?.reason).toContain('no evidence is recorded for P-unknown yet');
    });
  });
}
