import { loadFixtures } from '@ewp/conformance/pack';
import { EwpError } from '@ewp/core';
import { MemoryEvidenceStore } from '@ewp/ledger';
import { SqliteEvidenceStore } from '@ewp/sqlite';
import { run, RunState, tool } from '@openai/agents-core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { agentWith, restartModel, restartTool, toolOutputs } from '../../test/scripted-agent.js';
import { GATE_GUARDRAIL_NAME, gateAgentTool } from './gate-agent-tool.js';

const fixtures = loadFixtures();
const fixture = (name: string) => structuredClone(fixtures.find((f) => f.name === name)!.view);
const T0 = new Date('2026-09-21T21:00:00Z');
const LATER = new Date('2026-10-05T00:00:00Z'); // the 7-day check of P-win is stale by then

async function setup(at = T0) {
  const store = new MemoryEvidenceStore();
  await store.put(fixture('08-verified-now')); // P-win: ACCEPTED at T0, STALE at LATER
  await store.put(fixture('02-fork-x')); // P-x: OPEN, TENTATIVE
  let now = at;
  const clock = { now: () => now, set: (d: Date) => (now = d) };
  const calls: string[] = [];
  return { store, clock, calls, restart: restartTool(calls) };
}

const high = (reversible: boolean) => ({ action_id: 'restart', kind: 'restart', risk: 'high' as const, reversible });
const parsed = (output: unknown) => JSON.parse(String(output)) as Record<string, unknown>;

describe('gateAgentTool', () => {
  it('MAY_ACT runs the tool without asking', async () => {
    const { store, clock, calls, restart } = await setup();
    const gated = gateAgentTool(restart, { proposition: 'P-win', action: high(true), store, now: clock.now });
    const result = await run(agentWith(gated, restartModel(['server01'], 'Restarted.')), 'restart server01');
    expect(result.interruptions).toEqual([]);
    expect(calls).toEqual(['server01']);
    expect(toolOutputs(result)).toEqual(['restarted server01']);
    expect(result.finalOutput).toBe('Restarted.');
  });

  it('DENY: the input guardrail rejects the call with the reason the model reads, and the tool never runs', async () => {
    const { store, clock, calls, restart } = await setup();
    const gated = gateAgentTool(restart, { proposition: 'P-x', action: high(false), store, now: clock.now });
    const model = restartModel(['server01'], 'I may not restart it.');
    const result = await run(agentWith(gated, model), 'restart');
    expect(result.interruptions).toEqual([]);
    expect(calls).toEqual([]);
    const refusal = parsed(toolOutputs(result)[0]);
    expect(refusal).toMatchObject({ ewp_gate: 'DENY', proposition_id: 'P-x', action_id: 'restart', acceptance: 'TENTATIVE', conflict: 'OPEN' });
    expect(refusal.reason).toContain('does not warrant this high-risk action');
    expect(result.toolInputGuardrailResults.map((g) => [g.guardrail.name, g.output.behavior.type])).toEqual([[GATE_GUARDRAIL_NAME, 'rejectContent']]);
    // The refusal reached the model in its next request.
    expect(JSON.stringify(model.lastCall?.request.input)).toContain('\\"ewp_gate\\":\\"DENY\\"');
    expect(result.finalOutput).toBe('I may not restart it.');
  });

  it('DENY when nothing is stored for the proposition', async () => {
    const { store, clock, calls, restart } = await setup();
    const gated = gateAgentTool(restart, { proposition: 'P-unknown', action: { action_id: 'a', kind: 'k', risk: 'low' }, store, now: clock.now });
    const result = await run(agentWith(gated, restartModel(['server01'])), 'x');
    expect(calls).toEqual([]);
    expect(parsed(toolOutputs(result)[0])).toMatchObject({ ewp_gate: 'DENY', view_id: null, acceptance: null });
  });

  it('REQUIRE_CONFIRMATION pauses the run with an interruption; approve() and a new run execute the call', async () => {
    const { store, calls, restart } = await setup();
    const gated = gateAgentTool(restart, {
      proposition: 'P-win',
      action: { action_id: 'restart', kind: 'restart', risk: 'medium', reversible: true },
      store,
      now: () => LATER,
    });
    const agent = agentWith(gated, restartModel(['server01'], 'Restarted after your confirmation.'));
    const first = await run(agent, 'restart server01');
    expect(calls).toEqual([]);
    expect(first.interruptions).toHaveLength(1);
    expect(first.interruptions[0]).toMatchObject({ type: 'tool_approval_item', name: 'restart' });
    first.state.approve(first.interruptions[0]!);
    const second = await run(agent, first.state);
    expect(calls).toEqual(['server01']);
    expect(second.finalOutput).toBe('Restarted after your confirmation.');
  });

  it('reject() never runs the tool, and the model reads the rejection', async () => {
    const { store, calls, restart } = await setup();
    const gated = gateAgentTool(restart, {
      proposition: 'P-win',
      action: { action_id: 'r', kind: 'r', risk: 'medium', reversible: true },
      store,
      now: () => LATER,
    });
    const agent = agentWith(gated, restartModel(['server01'], 'Not restarted.'));
    const first = await run(agent, 'restart');
    first.state.reject(first.interruptions[0]!, { message: 'not now' });
    const second = await run(agent, first.state);
    expect(calls).toEqual([]);
    expect(toolOutputs(second)).toEqual(['not now']);
    expect(second.finalOutput).toBe('Not restarted.');
  });

  it('resumes from serialized state (state.toString() / RunState.fromString) in a new process-like step', async () => {
    const { store, calls, restart } = await setup();
    const gate = { proposition: 'P-win', action: { action_id: 'r', kind: 'r', risk: 'medium' as const, reversible: true }, store, now: () => LATER };
    const first = await run(agentWith(gateAgentTool(restart, gate), restartModel(['server01'], 'ok')), 'restart');
    const saved = first.state.toString();
    // A new agent object, as after a restart: its model continues the script with the answer.
    const agent = agentWith(gateAgentTool(restartTool(calls), gate), restartModel([], 'ok'));
    const restored = await RunState.fromString(agent, saved);
    const item = restored.getInterruptions()[0]!;
    restored.approve(item);
    const second = await run(agent, restored);
    expect(calls).toEqual(['server01']);
    expect(second.finalOutput).toBe('ok');
  });

  it('decides again when the approved call is about to run: evidence that turned to DENY meanwhile refuses it', async () => {
    const { store, calls, restart } = await setup();
    let risk: 'medium' | 'high' = 'medium';
    const gated = gateAgentTool(restart, {
      proposition: 'P-win',
      action: () => ({ action_id: 'r', kind: 'r', risk, reversible: true }),
      store,
      now: () => LATER,
    });
    const model = restartModel(['server01'], 'Refused.');
    const agent = agentWith(gated, model);
    const first = await run(agent, 'restart');
    expect(first.interruptions).toHaveLength(1);
    // Before the human answers, new evidence arrives: the proposition is superseded.
    await store.extend('P-win', [{ kind: 'lineage', record: { from_id: 'P-win', to_id: 'P-win-2025', kind: 'superseded_by' } }]);
    risk = 'high';
    first.state.approve(first.interruptions[0]!);
    const second = await run(agent, first.state);
    expect(calls).toEqual([]);
    expect(parsed(toolOutputs(second)[0])).toMatchObject({ ewp_gate: 'DENY', currency: 'SUPERSEDED' });
    expect(second.finalOutput).toBe('Refused.');
  });

  it('a call decided MAY_ACT when proposed but REQUIRE_CONFIRMATION when it runs is refused: nobody was asked', async () => {
    const { store, calls, restart } = await setup();
    let now = T0;
    // The clock moves between the proposal and the run: an input guardrail placed before the gate's advances it.
    const tick = {
      name: 'tick',
      run: async () => {
        now = LATER;
        return { behavior: { type: 'allow' as const } };
      },
    };
    const withTick = { ...restart, inputGuardrails: [{ type: 'tool_input' as const, ...tick }] };
    const gated = gateAgentTool(withTick, {
      proposition: 'P-win',
      action: { action_id: 'r', kind: 'r', risk: 'medium', reversible: true },
      store,
      now: () => now,
    });
    const result = await run(agentWith(gated, restartModel(['server01'], 'no')), 'restart');
    expect(calls).toEqual([]);
    expect(parsed(toolOutputs(result)[0])).toMatchObject({ ewp_gate: 'REQUIRE_CONFIRMATION' });
  });

  it('reads the proposition and the action from the tool input, per call', async () => {
    const { store, clock, calls, restart } = await setup();
    const gated = gateAgentTool(restart, {
      proposition: (input: { server: string }) => (input.server === 'server01' ? 'P-win' : 'P-x'),
      action: (input: { server: string }) => ({ action_id: `restart:${input.server}`, kind: 'restart', risk: 'high', reversible: true }),
      store,
      now: clock.now,
    });
    const result = await run(agentWith(gated, restartModel(['server01', 'other'])), 'restart both');
    expect(calls).toEqual(['server01']);
    const outputs = toolOutputs(result);
    expect(outputs[0]).toBe('restarted server01');
    expect(parsed(outputs[1])).toMatchObject({ ewp_gate: 'DENY', action_id: 'restart:other' });
  });

  it("keeps the inner tool's own approval when the warrant says MAY_ACT", async () => {
    const { store, clock, calls } = await setup();
    const careful = tool({
      name: 'restart',
      description: 'r',
      parameters: z.object({ server: z.string() }),
      needsApproval: true,
      execute: async ({ server }) => calls.push(server),
    });
    const gated = gateAgentTool(careful, { proposition: 'P-win', action: { action_id: 'r', kind: 'r', risk: 'low', reversible: true }, store, now: clock.now });
    const result = await run(agentWith(gated, restartModel(['server01'])), 'restart');
    expect(result.interruptions).toHaveLength(1);
    expect(calls).toEqual([]);
  });

  it('streams the interruption with run(..., { stream: true })', async () => {
    const { store, calls, restart } = await setup();
    const gated = gateAgentTool(restart, {
      proposition: 'P-win',
      action: { action_id: 'r', kind: 'r', risk: 'medium', reversible: true },
      store,
      now: () => LATER,
    });
    const agent = agentWith(gated, restartModel(['server01'], 'ok'));
    const first = await run(agent, 'restart', { stream: true });
    for await (const _ of first) {
      // drain
    }
    await first.completed;
    expect(first.interruptions).toHaveLength(1);
    first.state.approve(first.interruptions[0]!);
    const second = await run(agent, first.state, { stream: true });
    for await (const _ of second) {
      // drain
    }
    await second.completed;
    expect(calls).toEqual(['server01']);
    expect(second.finalOutput).toBe('ok');
  });

  it('sees evidence another writer committed to a shared SQLite ledger since the last call', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ewp-oa-gate-'));
    try {
      const file = join(dir, 'ledger.sqlite');
      const agentSide = new SqliteEvidenceStore(file);
      const ingestSide = new SqliteEvidenceStore(file);
      await ingestSide.put(fixture('08-verified-now'));
      const calls: string[] = [];
      const gated = gateAgentTool(restartTool(calls), { proposition: 'P-win', action: high(true), store: agentSide, now: () => T0 });
      await run(agentWith(gated, restartModel(['server01'])), 'x');
      expect(calls).toEqual(['server01']);
      const latest = (await ingestSide.get('P-win'))!;
      await ingestSide.extend('P-win', [{ kind: 'check', record: { ...latest.checks[0]!, check_id: 'k-down', result: 'opposes' } }]);
      const second = await run(agentWith(gated, restartModel(['server01'])), 'x');
      expect(calls).toEqual(['server01']);
      expect(parsed(toolOutputs(second)[0])).toMatchObject({ ewp_gate: 'DENY', conflict: 'OPEN' });
      await agentSide.close();
      await ingestSide.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses what is not a function tool, and a missing store, with typed errors', async () => {
    const { store, restart } = await setup();
    const error = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return e;
      }
      return undefined;
    };
    const notATool = error(() => gateAgentTool({ type: 'hosted_tool' } as never, { proposition: 'P', action: { action_id: 'a', kind: 'k' }, store }));
    expect(EwpError.isInstance(notATool) && notATool.code === 'WRONG_TYPE' && notATool.path === 'tool').toBe(true);
    const noStore = error(() => gateAgentTool(restart, { proposition: 'P', action: { action_id: 'a', kind: 'k' }, store: undefined as never }));
    expect(EwpError.isInstance(noStore) && noStore.code === 'MISSING_FIELD' && noStore.path === 'store').toBe(true);
  });
});
