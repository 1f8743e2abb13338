import { InvalidArgumentError } from '@ewp/core';
import { MemoryEvidenceStore } from '@ewp/ledger';
import { claimProposition, listDecisions } from '@ewp/tools';
import { createTool } from '@mastra/core/tools';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { scriptedModel } from '../../../ai-sdk/test/scripted-model.js';
import { opsAgent, restartTool } from '../../test/scripted-agent.js';
import { gate, warrantToolHooks } from './gate.js';
import { observe } from './observe.js';

const CLAIM = 'server01 is healthy';

function setup(ok: boolean | null = true) {
  const store = new MemoryEvidenceStore();
  const restarted: string[] = [];
  const healthCheck = createTool({
    id: 'health_check',
    description: 'Check the health of a server',
    inputSchema: z.object({ server: z.string() }),
    execute: async ({ server }) => ({ server, ok }),
  });
  const gates = { restart: { store, claim: CLAIM } };
  const tools = {
    health_check: observe(healthCheck, { store, claim: CLAIM, supports: (r: { ok: boolean | null }) => r.ok ?? undefined }),
    restart: gate(restartTool(restarted), gates.restart),
  };
  return { store, restarted, tools, hooks: warrantToolHooks(gates) };
}

const check = { toolCalls: [{ id: 'h1', name: 'health_check', input: { server: 'server01' } }] };
const restartCall = { toolCalls: [{ id: 'r1', name: 'restart', input: { server: 'server01' } }] };

describe('observe and gate on one claim (Agent.generate with a mock model)', () => {
  it('the observed check, then the gated action: MAY_ACT (low risk); the observation is the tool’s', async () => {
    const { store, restarted, tools, hooks } = setup();
    const agent = opsAgent(tools, scriptedModel([check, restartCall, { text: 'done' }]), hooks);
    const result = await agent.generate('restart server01 if healthy', { maxSteps: 4 });
    // The inner result reaches the model unchanged.
    expect(result.steps[0]?.toolResults[0]?.payload.result).toEqual({ server: 'server01', ok: true });
    expect(restarted).toEqual(['server01']);
    const view = await store.get(claimProposition(CLAIM));
    expect(view?.assertions).toEqual([]);
    expect(view?.evidence.map((e) => [e.polarity, e.source.origin_type, e.source.origin_locator])).toEqual([['supports', 'tool', 'tool:health_check']]);
    const decided = await listDecisions(store, { proposition: claimProposition(CLAIM) });
    expect(decided.map((d) => [d.record.decision, d.record.gate, d.record.call_id])).toContainEqual(['MAY_ACT', 'mastra', 'r1']);
  });

  it('the action alone: DENY, the reason says how to record evidence; the tool does not run', async () => {
    const { restarted, tools, hooks } = setup();
    const agent = opsAgent(tools, scriptedModel([restartCall, { text: 'refused' }]), hooks);
    const result = await agent.generate('restart server01', { maxSteps: 3 });
    expect(restarted).toEqual([]);
    const refusal = result.toolResults[0]?.payload.result as Record<string, unknown>;
    expect(refusal).toMatchObject({ ewpGate: 'DENY', claim: CLAIM, propositionId: claimProposition(CLAIM), actionId: 'restart' });
    expect(refusal.reason).toMatch(/no stored evidence for "server01 is healthy".*observe\(tool, \{ claim \}\)/);
  });

  it('a refuting result is recorded against the claim, and the gated action on it is DENY (a refutation alone never warrants acting)', async () => {
    const { store, restarted, tools, hooks } = setup(false);
    const result = await opsAgent(tools, scriptedModel([check, restartCall, { text: 'done' }]), hooks).generate('restart server01 if healthy', { maxSteps: 4 });
    expect((await store.get(claimProposition(CLAIM)))?.evidence.map((e) => e.polarity)).toEqual(['opposes']);
    expect(result.steps[1]?.toolResults[0]?.payload.result).toMatchObject({ ewpGate: 'DENY', claim: CLAIM });
    expect(restarted).toEqual([]);
  });

  it('supports → undefined records nothing', async () => {
    const { store, tools, hooks } = setup(null);
    await opsAgent(tools, scriptedModel([check, { text: 'unknown' }]), hooks).generate('check', { maxSteps: 2 });
    expect(await store.get(claimProposition(CLAIM))).toBeUndefined();
  });

  it('a recording that fails is thrown, never swallowed; options are checked when wrapping', async () => {
    const store = new MemoryEvidenceStore();
    const check = createTool({ id: 'health_check', description: 'c', inputSchema: z.object({}), execute: async () => ({ ok: 'yes' }) });
    const observed = observe(check, { store, claim: CLAIM, supports: (r: { ok: unknown }) => r.ok as never });
    const error = await Promise.resolve(observed.execute!({}, {} as never)).catch((e: unknown) => e);
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ path: 'supports' });
    const refusal = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return e;
      }
      throw new Error('expected a refusal');
    };
    const ok = { store, claim: CLAIM, supports: () => true };
    expect(refusal(() => observe(check, { ...ok, store: undefined as never }))).toMatchObject({ code: 'EWP_REFUSE_INVALID_ARGUMENT', path: 'options.store' });
    expect(refusal(() => observe(check, { ...ok, claim: ' ' }))).toMatchObject({ path: 'options.claim' });
    expect(refusal(() => observe(check, { ...ok, supports: undefined as never }))).toMatchObject({ path: 'options.supports' });
    expect(refusal(() => observe({} as never, ok))).toMatchObject({ path: 'tool' });
  });
});
