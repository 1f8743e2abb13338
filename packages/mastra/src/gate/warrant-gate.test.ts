import { loadFixtures } from '@ewp/conformance/pack';
import { EwpError } from '@ewp/core';
import { MemoryEvidenceStore } from '@ewp/ledger';
import type { Agent } from '@mastra/core/agent';
import { createTool } from '@mastra/core/tools';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { opsAgent, restartModel, restartTool } from '../../test/scripted-agent.js';
import { gateMastraTool, warrantToolHooks } from './warrant-gate.js';

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

const medium = { action_id: 'restart', kind: 'restart', risk: 'medium' as const, reversible: true };
const high = (reversible: boolean) => ({ action_id: 'restart', kind: 'restart', risk: 'high' as const, reversible });

/** Stream a run to its end; the chunk types and the run id. */
async function streamed(agent: Agent, prompt: string) {
  const stream = await agent.stream(prompt);
  const types: string[] = [];
  for await (const chunk of stream.fullStream) types.push(chunk.type);
  return { runId: stream.runId, types, text: await stream.text, toolResults: await stream.toolResults };
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
    const agent = opsAgent({ restart: gateMastraTool(restart, gate) }, restartModel(['server01'], 'Restarted.'), warrantToolHooks({ restart: gate }));
    const result = await agent.generate('restart server01');
    expect(calls).toEqual(['server01']);
    expect(result.toolResults[0]?.payload.result).toEqual({ restarted: 'server01' });
    expect(result.text).toBe('Restarted.');
  });

  it('DENY: beforeToolCall skips the call and the model reads the typed refusal', async () => {
    const { store, calls, restart } = await setup();
    const gate = { proposition: 'P-x', action: high(false), store, now: () => T0 };
    const model = restartModel(['server01'], 'I may not restart it.');
    const agent = opsAgent({ restart: gateMastraTool(restart, gate) }, model, warrantToolHooks({ restart: gate }));
    const result = await agent.generate('restart');
    expect(calls).toEqual([]);
    expect(result.toolResults[0]?.payload.result).toMatchObject({ ewp_gate: 'DENY', proposition_id: 'P-x', acceptance: 'TENTATIVE', conflict: 'OPEN' });
    expect(JSON.stringify(model.prompts[1])).toContain('"ewp_gate":"DENY"');
    expect(result.text).toBe('I may not restart it.');
  });

  it('DENY when nothing is stored for the proposition, for a tool gated by the hook alone', async () => {
    const { store, calls, restart } = await setup();
    const agent = opsAgent({ restart }, restartModel(['server01']), warrantToolHooks({ restart: { proposition: 'P-unknown', action: high(true), store } }));
    const result = await agent.generate('restart');
    expect(calls).toEqual([]);
    expect(result.toolResults[0]?.payload.result).toMatchObject({ ewp_gate: 'DENY', view_id: null });
  });

  it('REQUIRE_CONFIRMATION suspends the run for approval; approveToolCall runs the call', async () => {
    const { store, calls, restart } = await setup();
    const gate = { proposition: 'P-win', action: medium, store, now: () => LATER };
    const agent = opsAgent(
      { restart: gateMastraTool(restart, gate) },
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
    const agent = opsAgent({ restart: gateMastraTool(restart, gate) }, restartModel(['server01'], 'Not restarted.'), warrantToolHooks({ restart: gate }));
    const first = await streamed(agent, 'restart');
    expect(first.types).toContain('tool-call-approval');
    await drained(await agent.declineToolCall({ runId: first.runId }));
    expect(calls).toEqual([]);
  });

  it('decides again when the approved call resumes: evidence that turned to DENY meanwhile refuses it', async () => {
    const { store, calls, restart } = await setup();
    let risk: 'medium' | 'high' = 'medium';
    const gate = { proposition: 'P-win', action: () => ({ ...medium, risk }), store, now: () => LATER };
    const agent = opsAgent({ restart: gateMastraTool(restart, gate) }, restartModel(['server01'], 'Refused.'), warrantToolHooks({ restart: gate }));
    const first = await streamed(agent, 'restart');
    expect(first.types).toContain('tool-call-approval');
    await store.extend('P-win', [{ kind: 'lineage', record: { from_id: 'P-win', to_id: 'P-win-2025', kind: 'superseded_by' } }]);
    risk = 'high';
    const second = await drained(await agent.approveToolCall({ runId: first.runId }));
    expect(calls).toEqual([]);
    expect(second.toolResults[0]?.payload.result).toMatchObject({ ewp_gate: 'DENY', currency: 'SUPERSEDED' });
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
    expect(result.toolResults[0]?.payload.result).toMatchObject({ ewp_gate: 'REQUIRE_CONFIRMATION' });
  });

  it('reads the proposition and the action from the tool input; ungated tools and inner hooks run as before', async () => {
    const { store, calls, restart } = await setup();
    const seen: string[] = [];
    const gate = {
      proposition: (input: { server: string }) => (input.server === 'server01' ? 'P-win' : 'P-x'),
      action: (input: { server: string }) => ({ ...high(true), action_id: `restart:${input.server}` }),
      store,
      now: () => T0,
    };
    const hooks = warrantToolHooks({ restart: gate }, { beforeToolCall: async (c) => void seen.push(c.toolName) });
    const agent = opsAgent({ restart: gateMastraTool(restart, gate) }, restartModel(['server01', 'other']), hooks);
    const result = await agent.generate('restart both');
    expect(calls).toEqual(['server01']);
    const outputs = result.toolResults.map((r) => r.payload.result);
    expect(outputs).toContainEqual({ restarted: 'server01' });
    expect(outputs).toContainEqual(expect.objectContaining({ ewp_gate: 'DENY', action_id: 'restart:other' }));
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
    const agent = opsAgent({ restart: gateMastraTool(careful, gate) }, restartModel(['server01']), warrantToolHooks({ restart: gate }));
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
    expect(codeOf(() => gateMastraTool({} as never, { proposition: 'P', action: high(true), store }))).toBe('WRONG_TYPE tool');
    expect(codeOf(() => gateMastraTool(restart, { proposition: 'P', action: high(true), store: undefined as never }))).toBe('MISSING_FIELD gate.store');
    expect(codeOf(() => warrantToolHooks({ restart: { proposition: 'P', action: high(true) } as never }))).toBe('MISSING_FIELD gates.restart.store');
    expect(codeOf(() => warrantToolHooks(null as never))).toBe('NOT_AN_OBJECT gates');
  });
});
