import { loadFixtures } from '@ewp/conformance/pack';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EwpError } from '@ewp/core';
import { type EvidenceStore, JsonFileEvidenceStore, MemoryEvidenceStore } from '@ewp/ledger';
import { decisionHistory, listDecisions, runDecision, verifyDecision } from '@ewp/tools';
import type { Agent } from '@mastra/core/agent';
import { createTool } from '@mastra/core/tools';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { opsAgent, restartModel, restartTool } from '../../test/scripted-agent.js';
import { gate as gateTool, warrantToolHooks } from './gate.js';

const fixtures = loadFixtures();
const fixture = (name: string) => structuredClone(fixtures.find((f) => f.name === name)!.view);
const T0 = new Date('2026-09-21T21:00:00Z');
const LATER = new Date('2026-10-05T00:00:00Z'); // the 7-day check of P-win is stale by then

async function setup() {
  const store = new MemoryEvidenceStore();
  await store.put(fixture('08-verified-now')); // P-win: ACCEPTED at T0, STALE at LATER
  await store.put(fixture('02-fork-x')); // P-x: OPEN, TENTATIVE
  const calls: string[] = [];
  return { store, calls, restart: restartTool(calls) };
}

const medium = { id: 'restart', kind: 'restart', risk: 'medium' as const, reversible: true };
const high = (reversible: boolean) => ({ id: 'restart', kind: 'restart', risk: 'high' as const, reversible });

/** Stream a run to its end; the chunk types and the run id. */
async function streamed(agent: Agent, prompt: string) {
  const stream = await agent.stream(prompt);
  const types: string[] = [];
  for await (const chunk of stream.fullStream) types.push(chunk.type);
  return { runId: stream.runId, types, text: await stream.text, toolResults: await stream.toolResults };
}

/** What the ledger holds about a proposition's decisions, read back with the decision functions of @ewp/tools. */
async function ledgerOf(store: EvidenceStore, proposition: string) {
  const decisions = await listDecisions(store, { proposition });
  return Promise.all(decisions.map((d) => decisionHistory(store, d.decision_id)));
}

async function drained(stream: Awaited<ReturnType<Agent['approveToolCall']>>) {
  for await (const _ of stream.fullStream) {
    // drain
  }
  return { text: await stream.text, toolResults: await stream.toolResults };
}

describe('the Mastra warrant gate', () => {
  it('MAY_ACT runs the tool without asking', async () => {
    const { store, calls, restart } = await setup();
    const gate = { proposition: 'P-win', action: high(true), store, now: () => T0 };
    const agent = opsAgent({ restart: gateTool(restart, gate) }, restartModel(['server01'], 'Restarted.'), warrantToolHooks({ restart: gate }));
    const result = await agent.generate('restart server01');
    expect(calls).toEqual(['server01']);
    expect(result.toolResults[0]?.payload.result).toEqual({ restarted: 'server01' });
    expect(result.text).toBe('Restarted.');
  });

  it('DENY: beforeToolCall skips the call and the model reads the typed refusal', async () => {
    const { store, calls, restart } = await setup();
    const gate = { proposition: 'P-x', action: high(false), store, now: () => T0 };
    const model = restartModel(['server01'], 'I may not restart it.');
    const agent = opsAgent({ restart: gateTool(restart, gate) }, model, warrantToolHooks({ restart: gate }));
    const result = await agent.generate('restart');
    expect(calls).toEqual([]);
    expect(result.toolResults[0]?.payload.result).toMatchObject({ ewpGate: 'DENY', propositionId: 'P-x', acceptance: 'TENTATIVE', conflict: 'OPEN' });
    expect(JSON.stringify(model.prompts[1])).toContain('"ewpGate":"DENY"');
    expect(result.text).toBe('I may not restart it.');
  });

  it('DENY when nothing is stored for the proposition, for a tool gated by the hook alone', async () => {
    const { store, calls, restart } = await setup();
    const agent = opsAgent({ restart }, restartModel(['server01']), warrantToolHooks({ restart: { proposition: 'P-unknown', action: high(true), store } }));
    const result = await agent.generate('restart');
    expect(calls).toEqual([]);
    expect(result.toolResults[0]?.payload.result).toMatchObject({ ewpGate: 'DENY', viewId: null });
  });

  it('REQUIRE_CONFIRMATION suspends the run for approval; approveToolCall runs the call', async () => {
    const { store, calls, restart } = await setup();
    const gate = { proposition: 'P-win', action: medium, store, now: () => LATER };
    const agent = opsAgent(
      { restart: gateTool(restart, gate) },
      restartModel(['server01'], 'Restarted after your confirmation.'),
      warrantToolHooks({ restart: gate }),
    );
    const first = await streamed(agent, 'restart server01');
    expect(first.types).toContain('tool-call-approval');
    expect(calls).toEqual([]);
    const second = await drained(await agent.approveToolCall({ runId: first.runId }));
    expect(calls).toEqual(['server01']);
    expect(second.text).toBe('Restarted after your confirmation.');
  });

  it('declineToolCall never runs the call', async () => {
    const { store, calls, restart } = await setup();
    const gate = { proposition: 'P-win', action: medium, store, now: () => LATER };
    const agent = opsAgent({ restart: gateTool(restart, gate) }, restartModel(['server01'], 'Not restarted.'), warrantToolHooks({ restart: gate }));
    const first = await streamed(agent, 'restart');
    expect(first.types).toContain('tool-call-approval');
    await drained(await agent.declineToolCall({ runId: first.runId }));
    expect(calls).toEqual([]);
  });

  it('decides again when the approved call resumes: evidence that turned to DENY meanwhile refuses it', async () => {
    const { store, calls, restart } = await setup();
    let risk: 'medium' | 'high' = 'medium';
    const gate = { proposition: 'P-win', action: () => ({ ...medium, risk }), store, now: () => LATER };
    const agent = opsAgent({ restart: gateTool(restart, gate) }, restartModel(['server01'], 'Refused.'), warrantToolHooks({ restart: gate }));
    const first = await streamed(agent, 'restart');
    expect(first.types).toContain('tool-call-approval');
    await store.extend('P-win', [{ kind: 'lineage', record: { from_id: 'P-win', to_id: 'P-win-2025', kind: 'superseded_by' } }]);
    risk = 'high';
    const second = await drained(await agent.approveToolCall({ runId: first.runId }));
    expect(calls).toEqual([]);
    expect(second.toolResults[0]?.payload.result).toMatchObject({ ewpGate: 'DENY', currency: 'SUPERSEDED' });
  });

  it('a REQUIRE_CONFIRMATION nobody was asked about is refused (a tool gated by the hook alone)', async () => {
    const { store, calls, restart } = await setup();
    const agent = opsAgent(
      { restart },
      restartModel(['server01']),
      warrantToolHooks({ restart: { proposition: 'P-win', action: medium, store, now: () => LATER } }),
    );
    const result = await agent.generate('restart');
    expect(calls).toEqual([]);
    expect(result.toolResults[0]?.payload.result).toMatchObject({ ewpGate: 'REQUIRE_CONFIRMATION' });
  });

  it('reads the proposition and the action from the tool input; ungated tools and inner hooks run as before', async () => {
    const { store, calls, restart } = await setup();
    const seen: string[] = [];
    const gate = {
      proposition: (input: { server: string }) => (input.server === 'server01' ? 'P-win' : 'P-x'),
      action: (input: { server: string }) => ({ ...high(true), id: `restart:${input.server}` }),
      store,
      now: () => T0,
    };
    const hooks = warrantToolHooks({ restart: gate }, { beforeToolCall: async (c) => void seen.push(c.toolName) });
    const agent = opsAgent({ restart: gateTool(restart, gate) }, restartModel(['server01', 'other']), hooks);
    const result = await agent.generate('restart both');
    expect(calls).toEqual(['server01']);
    const outputs = result.toolResults.map((r) => r.payload.result);
    expect(outputs).toContainEqual({ restarted: 'server01' });
    expect(outputs).toContainEqual(expect.objectContaining({ ewpGate: 'DENY', actionId: 'restart:other' }));
    expect(seen).toEqual(['restart']); // the inner hook ran for the call the gate let through
  });

  it("keeps the tool's own requireApproval when the warrant says MAY_ACT", async () => {
    const { store, calls } = await setup();
    const careful = createTool({
      id: 'restart',
      description: 'r',
      inputSchema: z.object({ server: z.string() }),
      requireApproval: true,
      execute: async ({ server }) => calls.push(server),
    });
    const gate = { proposition: 'P-win', action: high(true), store, now: () => T0 };
    const agent = opsAgent({ restart: gateTool(careful, gate) }, restartModel(['server01']), warrantToolHooks({ restart: gate }));
    const first = await streamed(agent, 'restart');
    expect(first.types).toContain('tool-call-approval');
    expect(calls).toEqual([]);
  });

  it('refuses what is not a tool, a gate without a store, and gates that are not an object, with typed errors', async () => {
    const { store, restart } = await setup();
    const codeOf = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return EwpError.isInstance(e) ? `${e.code} ${e.path}` : String(e);
      }
      return 'no error';
    };
    expect(codeOf(() => gateTool({} as never, { proposition: 'P', action: high(true), store }))).toBe('EWP_REFUSE_INVALID_ARGUMENT tool');
    expect(codeOf(() => gateTool(restart, { proposition: 'P', action: high(true), store: undefined as never }))).toBe(
      'EWP_REFUSE_INVALID_ARGUMENT options.store',
    );
    expect(codeOf(() => warrantToolHooks({ restart: { proposition: 'P', action: high(true) } as never }))).toBe(
      'EWP_REFUSE_INVALID_ARGUMENT gates.restart.store',
    );
    expect(codeOf(() => warrantToolHooks(null as never))).toBe('EWP_REFUSE_INVALID_ARGUMENT gates');
  });

  describe('guarded execution (runGuarded): decision, approval, execution claim and outcome in the ledger', () => {
    it('MAY_ACT: the call runs once, under a recorded decision with its execution claim and outcome; that decision never runs again', async () => {
      const { store, calls, restart } = await setup();
      const gate = { proposition: 'P-win', action: high(true), store, now: () => T0 };
      const agent = opsAgent({ restart: gateTool(restart, gate) }, restartModel(['server01'], 'Restarted.'), warrantToolHooks({ restart: gate }));
      await agent.generate('restart server01');
      expect(calls).toEqual(['server01']);
      const ledger = await ledgerOf(store, 'P-win');
      // Decided when Mastra asked for approval, in the hook and in the guarded run: each recorded by this gate.
      expect(ledger.length).toBeGreaterThanOrEqual(2);
      for (const h of ledger) expect(h.decision.record).toMatchObject({ gate: 'mastra', decision: 'MAY_ACT', action: { action_id: 'restart' } });
      const executed = ledger.filter((h) => h.execution !== null);
      expect(executed).toHaveLength(1);
      const [ran] = executed;
      expect(ran?.decision.record.call_id).toBe('call-1');
      expect(ran?.execution?.body).toMatchObject({ decision_id: ran?.decision.decision_id, operation_digest: expect.stringMatching(/^[0-9a-f]{64}$/) });
      expect(ran?.outcome?.body).toMatchObject({ status: 'succeeded', error: null });
      expect(ran?.confirmation).toBeNull();
      expect(await verifyDecision(store, ran!.decision.decision_id)).toMatchObject({ ok: true, status: 'VERIFIED' });
      expect((await store.verifyChain()).ok).toBe(true);
      // A replay of that decision is refused by its execution claim.
      await expect(runDecision(store, ran!.decision.decision_id, { server: 'server01' }, () => calls.push('again'))).rejects.toMatchObject({
        code: 'EWP_REFUSE_DECISION_NOT_EXECUTABLE',
      });
      expect(calls).toEqual(['server01']);
    });

    it('the execution claim survives a restart: a decision executed over a JSON-file ledger is not executed again after reopening it', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'ewp-mastra-replay-'));
      try {
        const first = new JsonFileEvidenceStore(dir);
        await first.put(fixture('08-verified-now'));
        const calls: string[] = [];
        const gate = { proposition: 'P-win', action: high(true), store: first, now: () => T0 };
        await opsAgent({ restart: gateTool(restartTool(calls), gate) }, restartModel(['server01']), warrantToolHooks({ restart: gate })).generate('x');
        expect(calls).toEqual(['server01']);
        await first.close();
        const reopened = new JsonFileEvidenceStore(dir);
        const executed = (await ledgerOf(reopened, 'P-win')).filter((h) => h.execution !== null);
        expect(executed.map((h) => h.outcome?.body)).toEqual([expect.objectContaining({ status: 'succeeded' })]);
        await expect(runDecision(reopened, executed[0]!.decision.decision_id, { server: 'server01' }, () => calls.push('again'))).rejects.toMatchObject({
          code: 'EWP_REFUSE_DECISION_NOT_EXECUTABLE',
        });
        expect(calls).toEqual(['server01']);
        await reopened.close();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('DENY: the refusals are recorded decisions, and nothing is claimed or executed', async () => {
      const { store, calls, restart } = await setup();
      const gate = { proposition: 'P-x', action: high(false), store, now: () => T0 };
      const agent = opsAgent({ restart: gateTool(restart, gate) }, restartModel(['server01'], 'no'), warrantToolHooks({ restart: gate }));
      const result = await agent.generate('restart');
      expect(calls).toEqual([]);
      const refusal = result.toolResults[0]?.payload.result as { decisionId: string };
      const ledger = await ledgerOf(store, 'P-x');
      expect(ledger.map((h) => h.decision.decision_id)).toContain(refusal.decisionId);
      for (const h of ledger) {
        expect(h.decision.record).toMatchObject({ decision: 'DENY', gate: 'mastra' });
        expect([h.execution, h.outcome, h.confirmation]).toEqual([null, null, null]);
      }
    });

    it('DENY without the hook: the guarded run itself refuses, and the model reads the refusal', async () => {
      const { store, calls, restart } = await setup();
      const model = restartModel(['server01'], 'no');
      const agent = opsAgent({ restart: gateTool(restart, { proposition: 'P-x', action: high(false), store, now: () => T0 }) }, model);
      const result = await agent.generate('restart');
      expect(calls).toEqual([]);
      expect(result.toolResults[0]?.payload.result).toMatchObject({ ewpGate: 'DENY', propositionId: 'P-x', conflict: 'OPEN' });
      expect(JSON.stringify(model.prompts[1])).toContain('"ewpGate":"DENY"');
      for (const h of await ledgerOf(store, 'P-x')) expect(h.execution).toBeNull();
    });

    it('REQUIRE_CONFIRMATION: the approval is recorded as the confirmation of the decision that ran, once', async () => {
      const { store, calls, restart } = await setup();
      const gate = { proposition: 'P-win', action: medium, store, now: () => LATER };
      const agent = opsAgent({ restart: gateTool(restart, gate) }, restartModel(['server01'], 'ok'), warrantToolHooks({ restart: gate }));
      const first = await streamed(agent, 'restart server01');
      expect(first.types).toContain('tool-call-approval');
      // Mastra asks requireApproval without the call id: the question is decided, not recorded (a record
      // with a made-up call id would read as another call); the call's decisions are recorded when it runs.
      expect(await ledgerOf(store, 'P-win')).toEqual([]);
      await drained(await agent.approveToolCall({ runId: first.runId }));
      expect(calls).toEqual(['server01']);
      const executed = (await ledgerOf(store, 'P-win')).filter((h) => h.execution !== null);
      expect(executed).toHaveLength(1);
      expect(executed[0]).toMatchObject({
        decision: { record: { decision: 'REQUIRE_CONFIRMATION', gate: 'mastra', call_id: 'call-1' } },
        confirmation: { body: { confirmed_by: 'mastra approveToolCall of restart call call-1' } },
        outcome: { body: { status: 'succeeded' } },
      });
    });

    it('declineToolCall: no confirmation, no execution claim', async () => {
      const { store, calls, restart } = await setup();
      const gate = { proposition: 'P-win', action: medium, store, now: () => LATER };
      const agent = opsAgent({ restart: gateTool(restart, gate) }, restartModel(['server01'], 'ok'), warrantToolHooks({ restart: gate }));
      const first = await streamed(agent, 'restart');
      await drained(await agent.declineToolCall({ runId: first.runId }));
      expect(calls).toEqual([]);
      for (const h of await ledgerOf(store, 'P-win')) expect([h.confirmation, h.execution, h.outcome]).toEqual([null, null, null]);
    });

    it('a tool that throws is recorded as failed', async () => {
      const { store } = await setup();
      const failing = createTool({
        id: 'restart',
        description: 'r',
        inputSchema: z.object({ server: z.string() }),
        execute: async () => {
          throw new Error('winrm unreachable');
        },
      });
      const gate = { proposition: 'P-win', action: high(true), store, now: () => T0 };
      await opsAgent({ restart: gateTool(failing, gate) }, restartModel(['server01']), warrantToolHooks({ restart: gate })).generate('restart');
      const executed = (await ledgerOf(store, 'P-win')).filter((h) => h.execution !== null);
      expect(executed.map((h) => h.outcome?.body)).toEqual([expect.objectContaining({ status: 'failed', error: 'Error: winrm unreachable' })]);
    });

    it('fails closed: over a ledger that cannot record, the tool never runs and nothing is written', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'ewp-mastra-readonly-'));
      try {
        const writer = new JsonFileEvidenceStore(dir);
        await writer.put(fixture('08-verified-now'));
        await writer.close();
        const readOnly = new JsonFileEvidenceStore(dir, { readOnly: true });
        const calls: string[] = [];
        const gate = { proposition: 'P-win', action: high(true), store: readOnly, now: () => T0 };
        await opsAgent({ restart: gateTool(restartTool(calls), gate) }, restartModel(['server01']), warrantToolHooks({ restart: gate }))
          .generate('x')
          .catch(() => undefined);
        expect(calls).toEqual([]);
        expect(await readOnly.readEntries()).toEqual([]);
        await readOnly.close();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
});
