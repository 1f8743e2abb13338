import { InvalidArgumentError } from '@ewp/core';
import { MemoryEvidenceStore } from '@ewp/ledger';
import { claimProposition, listDecisions } from '@ewp/tools';
import { Agent, run, tool } from '@openai/agents-core';
import { assistantMessage, functionCall, ScriptedModel } from '@openai/agents-core/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toolOutputs } from '../../test/scripted-agent.js';
import { gate } from './gate.js';
import { observe } from './observe.js';

const CLAIM = 'server01 is healthy';

function setup(ok: boolean | null = true) {
  const store = new MemoryEvidenceStore();
  const restarted: string[] = [];
  const health = tool({
    name: 'health_check',
    description: 'Check the health of a server',
    parameters: z.object({ server: z.string() }),
    execute: async ({ server }) => ({ server, ok }),
  });
  const restart = tool({
    name: 'restart',
    description: 'Restart a server',
    parameters: z.object({ server: z.string() }),
    execute: async ({ server }) => {
      restarted.push(server);
      return `restarted ${server}`;
    },
  });
  const tools = [observe(health, { store, claim: CLAIM, supports: (r: { ok: boolean | null }) => r.ok ?? undefined }), gate(restart, { store, claim: CLAIM })];
  return { store, restarted, tools };
}

const check = functionCall('health_check', { server: 'server01' }, { callId: 'h1' });
const restartCall = functionCall('restart', { server: 'server01' }, { callId: 'r1' });

describe('observe and gate on one claim (run() with a ScriptedModel)', () => {
  it('the observed check, then the gated action: MAY_ACT (low risk); the observation is the tool’s', async () => {
    const { store, restarted, tools } = setup();
    const model = new ScriptedModel([[check], [restartCall], [assistantMessage('done')]]);
    const result = await run(new Agent({ name: 'ops', model, tools }), 'restart server01 if healthy');
    // The inner result reaches the model unchanged.
    expect(toolOutputs(result)).toEqual([{ server: 'server01', ok: true }, 'restarted server01']);
    expect(restarted).toEqual(['server01']);
    const view = await store.get(claimProposition(CLAIM));
    expect(view?.assertions).toEqual([]);
    expect(view?.evidence.map((e) => [e.polarity, e.source.origin_type, e.source.origin_locator])).toEqual([['supports', 'tool', 'tool:health_check']]);
    const decided = await listDecisions(store, { proposition: claimProposition(CLAIM) });
    expect(decided.map((d) => [d.record.decision, d.record.gate, d.record.call_id])).toContainEqual(['MAY_ACT', 'openai-agents', 'r1']);
  });

  it('the action alone: DENY, the reason says how to record evidence; the tool does not run', async () => {
    const { restarted, tools } = setup();
    const model = new ScriptedModel([[restartCall], [assistantMessage('refused')]]);
    const result = await run(new Agent({ name: 'ops', model, tools }), 'restart server01');
    expect(restarted).toEqual([]);
    const refusal = JSON.parse(String(toolOutputs(result)[0])) as Record<string, unknown>;
    expect(refusal).toMatchObject({ ewpGate: 'DENY', claim: CLAIM, propositionId: claimProposition(CLAIM), actionId: 'restart' });
    expect(refusal.reason).toMatch(/no stored evidence for "server01 is healthy".*observe\(tool, \{ claim \}\)/);
  });

  it('a refuting result is recorded against the claim, and the gated action on it is DENY (a refutation alone never warrants acting)', async () => {
    const { store, restarted, tools } = setup(false);
    const model = new ScriptedModel([[check], [restartCall], [assistantMessage('done')]]);
    const result = await run(new Agent({ name: 'ops', model, tools }), 'restart server01 if healthy');
    expect(toolOutputs(result)[0]).toEqual({ server: 'server01', ok: false });
    expect((await store.get(claimProposition(CLAIM)))?.evidence.map((e) => e.polarity)).toEqual(['opposes']);
    expect(JSON.parse(String(toolOutputs(result)[1]))).toMatchObject({ ewpGate: 'DENY', claim: CLAIM });
    expect(restarted).toEqual([]);
  });

  it('supports → undefined records nothing', async () => {
    const { store, tools } = setup(null);
    await run(new Agent({ name: 'ops', model: new ScriptedModel([[check], [assistantMessage('unknown')]]), tools }), 'check');
    expect(await store.get(claimProposition(CLAIM))).toBeUndefined();
  });

  it('a recording that fails fails the run, never swallowed; options are checked when wrapping', async () => {
    const store = new MemoryEvidenceStore();
    const health = tool({ name: 'health_check', description: 'c', parameters: z.object({}), execute: async () => 'fine' });
    const observed = observe(health, { store, claim: CLAIM, supports: () => 'yes' as never });
    const failed = await run(
      new Agent({ name: 'ops', model: new ScriptedModel([[functionCall('health_check', {}, { callId: 'h1' })]]), tools: [observed] }),
      'check',
    ).catch((e: unknown) => e);
    expect(failed).toMatchObject({ message: expect.stringMatching(/supports/) });
    const refusal = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return e;
      }
      throw new Error('expected a refusal');
    };
    const ok = { store, claim: CLAIM, supports: () => true };
    const noStore = refusal(() => observe(health, { ...ok, store: undefined as never }));
    expect(InvalidArgumentError.isInstance(noStore)).toBe(true);
    expect(noStore).toMatchObject({ path: 'options.store' });
    expect(refusal(() => observe(health, { ...ok, claim: '' }))).toMatchObject({ path: 'options.claim' });
    expect(refusal(() => observe(health, { ...ok, supports: undefined as never }))).toMatchObject({ path: 'options.supports' });
    expect(refusal(() => observe({ type: 'hosted_tool' } as never, ok))).toMatchObject({ path: 'tool' });
  });
});
