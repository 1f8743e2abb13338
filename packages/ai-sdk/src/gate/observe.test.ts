import { InvalidArgumentError } from '@ewp/core';
import { MemoryEvidenceStore } from '@ewp/ledger';
import { claimProposition, listDecisions } from '@ewp/tools';
import { generateText, stepCountIs, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { scriptedModel } from '../../test/scripted-model.js';
import { gate } from './gate.js';
import { observe } from './observe.js';

const CLAIM = 'server01 is healthy';

function tools(store: MemoryEvidenceStore, health: { ok: boolean } = { ok: true }) {
  const restarted: string[] = [];
  const healthCheck = tool({
    description: 'Check the health of a server',
    inputSchema: z.object({ server: z.string() }),
    execute: async ({ server }) => ({ server, ...health }),
  });
  const restart = tool({
    description: 'Restart a server',
    inputSchema: z.object({ server: z.string() }),
    execute: async ({ server }) => {
      restarted.push(server);
      return `restarted ${server}`;
    },
  });
  return {
    restarted,
    tools: {
      health_check: observe(healthCheck, { name: 'health_check', store, claim: CLAIM, supports: (r) => r.ok }),
      restart: gate(restart, { name: 'restart', store, claim: CLAIM }),
    },
  };
}

const healthCall = { id: 'h1', name: 'health_check', input: { server: 'server01' } };
const restartCall = (id: string) => ({ id, name: 'restart', input: { server: 'server01' } });

describe('observe and gate on one claim', () => {
  it('a run that calls the observed check, then the gated action: MAY_ACT (low risk), and the observation names the tool', async () => {
    const store = new MemoryEvidenceStore();
    const { restarted, tools: set } = tools(store);
    const model = scriptedModel([{ toolCalls: [healthCall] }, { toolCalls: [restartCall('r1')] }, { text: 'done' }]);
    const result = await generateText({ model, tools: set, prompt: 'restart server01 if healthy', stopWhen: stepCountIs(4) });
    // The inner result reaches the model unchanged.
    expect(result.steps[0]!.toolResults[0]!.output).toEqual({ server: 'server01', ok: true });
    expect(result.steps[1]!.toolResults[0]!.output).toBe('restarted server01');
    expect(restarted).toEqual(['server01']);
    const view = await store.get(claimProposition(CLAIM));
    expect(view?.assertions).toEqual([]);
    expect(view?.evidence.map((e) => [e.polarity, e.source.origin_type, e.source.origin_locator])).toEqual([['supports', 'tool', 'tool:health_check']]);
    const [decision] = await listDecisions(store, { proposition: claimProposition(CLAIM) });
    expect(decision?.record).toMatchObject({ decision: 'MAY_ACT', gate: 'ai-sdk', call_id: 'r1' });
  });

  it('the action alone: DENY, with the reason saying how to record evidence; the tool does not run', async () => {
    const store = new MemoryEvidenceStore();
    const { restarted, tools: set } = tools(store);
    const model = scriptedModel([{ toolCalls: [restartCall('r1')] }, { text: 'refused' }]);
    const result = await generateText({ model, tools: set, prompt: 'restart server01', stopWhen: stepCountIs(3) });
    expect(restarted).toEqual([]);
    const refusal = result.steps[0]!.toolResults[0]!.output as Record<string, unknown>;
    expect(refusal).toMatchObject({ ewpGate: 'DENY', claim: CLAIM, propositionId: claimProposition(CLAIM), actionId: 'restart' });
    expect(refusal.reason).toMatch(/no stored evidence for "server01 is healthy".*observe\(tool, \{ claim \}\)/);
  });

  it('a refuting result is recorded against the claim, and the gated action on it is DENY (a refutation alone never warrants acting)', async () => {
    const store = new MemoryEvidenceStore();
    const { restarted, tools: set } = tools(store, { ok: false });
    const model = scriptedModel([{ toolCalls: [healthCall] }, { toolCalls: [restartCall('r1')] }, { text: 'done' }]);
    const result = await generateText({ model, tools: set, prompt: 'restart server01 if healthy', stopWhen: stepCountIs(4) });
    expect(result.steps[0]!.toolResults[0]!.output).toEqual({ server: 'server01', ok: false });
    expect((await store.get(claimProposition(CLAIM)))?.evidence.map((e) => e.polarity)).toEqual(['opposes']);
    expect(result.steps[1]!.toolResults[0]!.output).toMatchObject({ ewpGate: 'DENY', claim: CLAIM });
    expect(restarted).toEqual([]);
  });

  it('supports → undefined records nothing; the claim may be a function of input and result', async () => {
    const store = new MemoryEvidenceStore();
    const check = tool({ inputSchema: z.object({ server: z.string() }), execute: async ({ server }) => ({ server, ok: server === 'server01' ? true : null }) });
    const observed = observe(check, {
      name: 'health_check',
      store,
      claim: (input) => `${input.server} is healthy`,
      supports: (r) => r.ok ?? undefined,
    });
    const model = scriptedModel([
      {
        toolCalls: [
          { id: 'a', name: 'health_check', input: { server: 'server01' } },
          { id: 'b', name: 'health_check', input: { server: 'server02' } },
        ],
      },
      { text: 'done' },
    ]);
    await generateText({ model, tools: { health_check: observed }, prompt: 'check', stopWhen: stepCountIs(2) });
    expect((await store.get(claimProposition('server01 is healthy')))?.evidence).toHaveLength(1);
    expect(await store.get(claimProposition('server02 is healthy'))).toBeUndefined();
  });

  it('a recording that fails is the call’s error, never swallowed', async () => {
    const store = new MemoryEvidenceStore();
    const check = tool({ inputSchema: z.object({}), execute: async () => ({ ok: 'yes' }) });
    const observed = observe(check, { name: 'health_check', store, claim: CLAIM, supports: (r) => r.ok as never });
    const error = await Promise.resolve(observed.execute!({}, { toolCallId: 'c1', messages: [] })).catch((e: unknown) => e);
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ path: 'supports' });
  });

  it('checks its options when wrapping: the field is named', () => {
    const store = new MemoryEvidenceStore();
    const check = tool({ inputSchema: z.object({}), execute: async () => ({ ok: true }) });
    const refusal = (options: unknown, inner: unknown = check) => {
      try {
        observe(inner as typeof check, options as never);
      } catch (e) {
        return e;
      }
      throw new Error('expected a refusal');
    };
    const ok = { name: 'health_check', store, claim: CLAIM, supports: () => true };
    expect(refusal({ ...ok, store: undefined })).toMatchObject({ code: 'EWP_REFUSE_INVALID_ARGUMENT', path: 'options.store' });
    expect(refusal({ ...ok, claim: ' ' })).toMatchObject({ path: 'options.claim' });
    expect(refusal({ ...ok, supports: true })).toMatchObject({ path: 'options.supports' });
    expect(refusal({ ...ok, name: 'bad name' })).toMatchObject({ path: 'options.name' });
    expect(refusal(ok, tool({ inputSchema: z.object({}) }))).toMatchObject({ path: 'tool.execute' });
  });
});
