import { loadFixtures } from '@ewp/conformance/pack';
import { InvalidArgumentError } from '@ewp/core';
import { type EvidenceStore, MemoryEvidenceStore } from '@ewp/ledger';
import { SqliteEvidenceStore } from '@ewp/sqlite';
import { callClaimId, DECISION_ENTRY_KINDS, DecisionError, decisionHistory, listDecisions, runDecision, verifyDecision } from '@ewp/tools';
import { run, RunState, ToolCallError, tool } from '@openai/agents-core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { agentWith, restartModel, restartTool, toolOutputs } from '../../test/scripted-agent.js';
import { GATE_GUARDRAIL_NAME, gate } from './gate.js';

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

const high = (reversible: boolean) => ({ id: 'restart', kind: 'restart', risk: 'high' as const, reversible });
const parsed = (output: unknown) => JSON.parse(String(output)) as Record<string, unknown>;

/** What the ledger holds about a proposition's decisions, read back with the decision functions of @ewp/tools. */
async function ledgerOf(store: EvidenceStore, proposition: string) {
  const decisions = await listDecisions(store, { proposition });
  return Promise.all(decisions.map((d) => decisionHistory(store, d.decision_id)));
}

describe('gate', () => {
  it('MAY_ACT runs the tool without asking', async () => {
    const { store, clock, calls, restart } = await setup();
    const gated = gate(restart, { proposition: 'P-win', action: high(true), store, now: clock.now });
    const result = await run(agentWith(gated, restartModel(['server01'], 'Restarted.')), 'restart server01');
    expect(result.interruptions).toEqual([]);
    expect(calls).toEqual(['server01']);
    expect(toolOutputs(result)).toEqual(['restarted server01']);
    expect(result.finalOutput).toBe('Restarted.');
  });

  it('DENY: the input guardrail rejects the call with the reason the model reads, and the tool never runs', async () => {
    const { store, clock, calls, restart } = await setup();
    const gated = gate(restart, { proposition: 'P-x', action: high(false), store, now: clock.now });
    const model = restartModel(['server01'], 'I may not restart it.');
    const result = await run(agentWith(gated, model), 'restart');
    expect(result.interruptions).toEqual([]);
    expect(calls).toEqual([]);
    const refusal = parsed(toolOutputs(result)[0]);
    expect(refusal).toMatchObject({ ewpGate: 'DENY', propositionId: 'P-x', actionId: 'restart', acceptance: 'TENTATIVE', conflict: 'OPEN' });
    expect(refusal.reason).toContain('does not warrant this high-risk action');
    expect(result.toolInputGuardrailResults.map((g) => [g.guardrail.name, g.output.behavior.type])).toEqual([[GATE_GUARDRAIL_NAME, 'rejectContent']]);
    // The refusal reached the model in its next request.
    expect(JSON.stringify(model.lastCall?.request.input)).toContain('\\"ewpGate\\":\\"DENY\\"');
    expect(result.finalOutput).toBe('I may not restart it.');
  });

  it('DENY when nothing is stored for the proposition', async () => {
    const { store, clock, calls, restart } = await setup();
    const gated = gate(restart, { proposition: 'P-unknown', action: { id: 'a', kind: 'k', risk: 'low' }, store, now: clock.now });
    const result = await run(agentWith(gated, restartModel(['server01'])), 'x');
    expect(calls).toEqual([]);
    expect(parsed(toolOutputs(result)[0])).toMatchObject({ ewpGate: 'DENY', viewId: null, acceptance: null });
  });

  it('REQUIRE_CONFIRMATION pauses the run with an interruption; approve() and a new run execute the call', async () => {
    const { store, calls, restart } = await setup();
    const gated = gate(restart, {
      proposition: 'P-win',
      action: { id: 'restart', kind: 'restart', risk: 'medium', reversible: true },
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
    const gated = gate(restart, {
      proposition: 'P-win',
      action: { id: 'r', kind: 'r', risk: 'medium', reversible: true },
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
    const gateOptions = { proposition: 'P-win', action: { id: 'r', kind: 'r', risk: 'medium' as const, reversible: true }, store, now: () => LATER };
    const first = await run(agentWith(gate(restart, gateOptions), restartModel(['server01'], 'ok')), 'restart');
    const saved = first.state.toString();
    // A new agent object, as after a restart: its model continues the script with the answer.
    const agent = agentWith(gate(restartTool(calls), gateOptions), restartModel([], 'ok'));
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
    const gated = gate(restart, {
      proposition: 'P-win',
      action: () => ({ id: 'r', kind: 'r', risk, reversible: true }),
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
    expect(parsed(toolOutputs(second)[0])).toMatchObject({ ewpGate: 'DENY', currency: 'SUPERSEDED' });
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
    const gated = gate(withTick, {
      proposition: 'P-win',
      action: { id: 'r', kind: 'r', risk: 'medium', reversible: true },
      store,
      now: () => now,
    });
    const result = await run(agentWith(gated, restartModel(['server01'], 'no')), 'restart');
    expect(calls).toEqual([]);
    expect(parsed(toolOutputs(result)[0])).toMatchObject({ ewpGate: 'REQUIRE_CONFIRMATION' });
  });

  it('reads the proposition and the action from the tool input, per call', async () => {
    const { store, clock, calls, restart } = await setup();
    const gated = gate(restart, {
      proposition: (input: { server: string }) => (input.server === 'server01' ? 'P-win' : 'P-x'),
      action: (input: { server: string }) => ({ id: `restart:${input.server}`, kind: 'restart', risk: 'high', reversible: true }),
      store,
      now: clock.now,
    });
    const result = await run(agentWith(gated, restartModel(['server01', 'other'])), 'restart both');
    expect(calls).toEqual(['server01']);
    const outputs = toolOutputs(result);
    expect(outputs[0]).toBe('restarted server01');
    expect(parsed(outputs[1])).toMatchObject({ ewpGate: 'DENY', actionId: 'restart:other' });
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
    const gated = gate(careful, { proposition: 'P-win', action: { id: 'r', kind: 'r', risk: 'low', reversible: true }, store, now: clock.now });
    const result = await run(agentWith(gated, restartModel(['server01'])), 'restart');
    expect(result.interruptions).toHaveLength(1);
    expect(calls).toEqual([]);
  });

  it('streams the interruption with run(..., { stream: true })', async () => {
    const { store, calls, restart } = await setup();
    const gated = gate(restart, {
      proposition: 'P-win',
      action: { id: 'r', kind: 'r', risk: 'medium', reversible: true },
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
      const gated = gate(restartTool(calls), { proposition: 'P-win', action: high(true), store: agentSide, now: () => T0 });
      await run(agentWith(gated, restartModel(['server01'])), 'x');
      expect(calls).toEqual(['server01']);
      const latest = (await ingestSide.get('P-win'))!;
      await ingestSide.extend('P-win', [{ kind: 'check', record: { ...latest.checks[0]!, check_id: 'k-down', result: 'opposes' } }]);
      const second = await run(agentWith(gated, restartModel(['server01'])), 'x');
      expect(calls).toEqual(['server01']);
      expect(parsed(toolOutputs(second)[0])).toMatchObject({ ewpGate: 'DENY', conflict: 'OPEN' });
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
    const notATool = error(() => gate({ type: 'hosted_tool' } as never, { proposition: 'P', action: { id: 'a', kind: 'k' }, store }));
    expect(notATool).toMatchObject({ code: 'EWP_REFUSE_INVALID_ARGUMENT', path: 'tool' });
    expect(InvalidArgumentError.isInstance(notATool)).toBe(true);
    const noStore = error(() => gate(restart, { proposition: 'P', action: { id: 'a', kind: 'k' }, store: undefined as never }));
    expect(noStore).toMatchObject({ code: 'EWP_REFUSE_INVALID_ARGUMENT', path: 'options.store' });
    // The one check of the gate's options (checkGateOptions), made when the tool is wrapped.
    expect(error(() => gate(restart, { claim: 'c', proposition: 'P', store }))).toMatchObject({ path: 'options.claim' });
    expect(error(() => gate({ name: 'restart', description: 'r', parameters: z.object({}) } as never, { claim: 'c', store }))).toMatchObject({ path: 'tool' });
  });

  describe('guarded execution (runGuarded): decision, approval, execution claim and outcome in the ledger', () => {
    it('MAY_ACT: the call runs once, under a recorded decision with its execution claim and outcome; that decision never runs again', async () => {
      const { store, clock, calls, restart } = await setup();
      const gated = gate(restart, { proposition: 'P-win', action: high(true), store, now: clock.now });
      await run(agentWith(gated, restartModel(['server01'], 'Restarted.')), 'restart server01');
      expect(calls).toEqual(['server01']);
      const ledger = await ledgerOf(store, 'P-win');
      // Decided when proposed, by the guardrail and by the guarded run: each recorded, as this call of this gate.
      expect(ledger.length).toBeGreaterThanOrEqual(2);
      for (const h of ledger)
        expect(h.decision.record).toMatchObject({ gate: 'openai-agents', call_id: 'call-1', decision: 'MAY_ACT', action: { action_id: 'restart' } });
      const executed = ledger.filter((h) => h.execution !== null);
      expect(executed).toHaveLength(1);
      const [ran] = executed;
      expect(ran?.execution?.body).toMatchObject({ decision_id: ran?.decision.decision_id, operation_digest: expect.stringMatching(/^[0-9a-f]{64}$/) });
      expect(ran?.outcome?.body).toMatchObject({ status: 'succeeded', error: null });
      expect(ran?.confirmation).toBeNull();
      expect(await verifyDecision(store, ran!.decision.decision_id)).toMatchObject({ ok: true, status: 'VERIFIED' });
      expect((await store.verifyChain()).ok).toBe(true);
      // A replay of that decision (the same input, or any other) is refused by its execution claim.
      for (const input of [{ server: 'server01' }, { server: 'server02' }]) {
        await expect(runDecision(store, ran!.decision.decision_id, input, () => calls.push('again'))).rejects.toMatchObject({
          code: 'EWP_REFUSE_DECISION_NOT_EXECUTABLE',
        });
      }
      expect(calls).toEqual(['server01']);
    });

    it('the execution claim survives a restart: a decision a run executed over a SQLite ledger is not executed again after reopening it', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'ewp-oa-replay-'));
      try {
        const file = join(dir, 'ledger.sqlite');
        const first = new SqliteEvidenceStore(file);
        await first.put(fixture('08-verified-now'));
        const calls: string[] = [];
        await run(
          agentWith(gate(restartTool(calls), { proposition: 'P-win', action: high(true), store: first, now: () => T0 }), restartModel(['server01'])),
          'x',
        );
        expect(calls).toEqual(['server01']);
        await first.close();
        const reopened = new SqliteEvidenceStore(file);
        const executed = (await ledgerOf(reopened, 'P-win')).filter((h) => h.execution !== null);
        expect(executed.map((h) => h.outcome?.body)).toEqual([expect.objectContaining({ status: 'succeeded' })]);
        await expect(runDecision(reopened, executed[0]!.decision.decision_id, { server: 'server01' }, () => calls.push('again'))).rejects.toMatchObject({
          code: 'EWP_REFUSE_DECISION_NOT_EXECUTABLE',
        });
        expect(calls).toEqual(['server01']);
        expect((await reopened.verifyChain()).ok).toBe(true);
        await reopened.close();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('DENY: the refusals are recorded decisions, and nothing is claimed or executed', async () => {
      const { store, clock, calls, restart } = await setup();
      const gated = gate(restart, { proposition: 'P-x', action: high(false), store, now: clock.now });
      const result = await run(agentWith(gated, restartModel(['server01'], 'no')), 'restart');
      expect(calls).toEqual([]);
      const refusal = parsed(toolOutputs(result)[0]);
      const ledger = await ledgerOf(store, 'P-x');
      expect(ledger.length).toBeGreaterThanOrEqual(1);
      expect(ledger.map((h) => h.decision.decision_id)).toContain(refusal.decisionId);
      for (const h of ledger) {
        expect(h.decision.record).toMatchObject({ decision: 'DENY', gate: 'openai-agents', call_id: 'call-1' });
        expect([h.execution, h.outcome, h.confirmation]).toEqual([null, null, null]);
      }
    });

    it('REQUIRE_CONFIRMATION: the approval is recorded as the confirmation of the decision that ran, once', async () => {
      const { store, calls, restart } = await setup();
      const gated = gate(restart, { proposition: 'P-win', action: { ...high(true), risk: 'medium' }, store, now: () => LATER });
      const agent = agentWith(gated, restartModel(['server01'], 'ok'));
      const first = await run(agent, 'restart server01');
      // Asked, not yet answered: decided and recorded, nothing confirmed or claimed.
      const asked = await ledgerOf(store, 'P-win');
      expect(asked.map((h) => [h.decision.record.decision, h.confirmation, h.execution])).toEqual([['REQUIRE_CONFIRMATION', null, null]]);
      first.state.approve(first.interruptions[0]!);
      await run(agent, first.state);
      expect(calls).toEqual(['server01']);
      const executed = (await ledgerOf(store, 'P-win')).filter((h) => h.execution !== null);
      expect(executed).toHaveLength(1);
      expect(executed[0]).toMatchObject({
        decision: { record: { decision: 'REQUIRE_CONFIRMATION', gate: 'openai-agents', call_id: 'call-1' } },
        confirmation: { body: { confirmed_by: 'openai-agents approval of restart call call-1' } },
        outcome: { body: { status: 'succeeded' } },
      });
    });

    it('a run state resumed twice after approve(): the approved call runs once; the second resume decides again and is refused', async () => {
      const { store, clock, calls, restart } = await setup(LATER);
      const gateOptions = { proposition: 'P-win', action: { ...high(true), risk: 'medium' as const }, store, now: clock.now };
      const first = await run(agentWith(gate(restart, gateOptions), restartModel(['server01'], 'ok')), 'restart server01');
      first.state.approve(first.interruptions[0]!);
      const saved = first.state.toString();
      // Two workers resume the same saved, approved state, a minute apart: each restores it and runs.
      const resume = async () => {
        const agent = agentWith(gate(restartTool(calls), gateOptions), restartModel([], 'ok'));
        return run(agent, await RunState.fromString(agent, saved));
      };
      await resume();
      expect(calls).toEqual(['server01']);
      clock.set(new Date(LATER.getTime() + 60_000));
      await expect(resume()).rejects.toSatisfy(
        (e: unknown) =>
          e instanceof ToolCallError &&
          DecisionError.isInstance(e.error) &&
          e.error.code === 'EWP_REFUSE_DECISION_NOT_EXECUTABLE' &&
          /call "call-1" of gate "openai-agents" was already executed under decision dec_/.test(e.error.message),
      );
      expect(calls).toEqual(['server01']);
      // Both resumes recorded the SDK's approval as the confirmation of a decision of their own; one
      // ran, the other's refusal is its outcome, and the call was claimed once.
      const confirmed = (await ledgerOf(store, 'P-win')).filter((h) => h.confirmation !== null);
      expect(confirmed.map((h) => [h.decision.record.call_id, h.execution === null ? 'not claimed' : 'claimed', h.outcome?.body.status])).toEqual([
        ['call-1', 'claimed', 'succeeded'],
        ['call-1', 'not claimed', 'call_already_executed'],
      ]);
      expect(await store.readEntries({ kind: DECISION_ENTRY_KINDS.call })).toMatchObject([{ id: callClaimId('openai-agents', 'call-1') }]);
    });

    it('reject(): no confirmation, no execution claim', async () => {
      const { store, calls, restart } = await setup();
      const gated = gate(restart, { proposition: 'P-win', action: { ...high(true), risk: 'medium' }, store, now: () => LATER });
      const agent = agentWith(gated, restartModel(['server01'], 'ok'));
      const first = await run(agent, 'restart');
      first.state.reject(first.interruptions[0]!);
      await run(agent, first.state);
      expect(calls).toEqual([]);
      for (const h of await ledgerOf(store, 'P-win')) expect([h.confirmation, h.execution, h.outcome]).toEqual([null, null, null]);
    });

    it('the guarded run decides again: a call the guardrail allowed that needs a confirmation by the time it runs is refused, and recorded so', async () => {
      const { store, calls, restart } = await setup();
      // The third decision of the call (the guarded run's) is made after the 7-day check went stale.
      let decided = 0;
      const now = () => (++decided <= 2 ? T0 : LATER);
      const gated = gate(restart, { proposition: 'P-win', action: { ...high(true), risk: 'medium' }, store, now });
      const result = await run(agentWith(gated, restartModel(['server01'], 'no')), 'restart');
      expect(calls).toEqual([]);
      expect(result.toolInputGuardrailResults.map((g) => g.output.behavior.type)).toEqual(['allow']);
      const refusal = parsed(toolOutputs(result)[0]);
      expect(refusal).toMatchObject({ ewpGate: 'REQUIRE_CONFIRMATION', currency: 'STALE' });
      const history = await decisionHistory(store, refusal.decisionId as string);
      expect(history).toMatchObject({ execution: null, confirmation: null, outcome: { body: { status: 'not_confirmed' } } });
    });

    it('a tool that throws (errorFunction: null) is recorded as failed, and the error reaches the caller', async () => {
      const { store, clock } = await setup();
      const failing = tool({
        name: 'restart',
        description: 'r',
        parameters: z.object({ server: z.string() }),
        errorFunction: null,
        execute: async () => {
          throw new Error('winrm unreachable');
        },
      });
      const gated = gate(failing, { proposition: 'P-win', action: high(true), store, now: clock.now });
      await expect(run(agentWith(gated, restartModel(['server01'])), 'restart')).rejects.toThrow('winrm unreachable');
      const executed = (await ledgerOf(store, 'P-win')).filter((h) => h.execution !== null);
      expect(executed.map((h) => h.outcome?.body)).toEqual([expect.objectContaining({ status: 'failed', error: 'Error: winrm unreachable' })]);
    });

    it('gate(tool options): a failing execute under the default errorFunction is recorded failed; the model reads the SDK default message', async () => {
      const { store, clock } = await setup();
      const options = {
        name: 'restart',
        description: 'r',
        parameters: z.object({ server: z.string() }),
        execute: async (): Promise<string> => {
          throw new Error('winrm unreachable');
        },
      };
      const result = await run(
        agentWith(gate(options, { proposition: 'P-win', action: high(true), store, now: clock.now }), restartModel(['server01'], 'failed')),
        'restart',
      );
      // The same text as the SDK's own tool with these options gives the model.
      const plain = await run(agentWith(tool(options), restartModel(['server01'], 'failed')), 'restart');
      expect(toolOutputs(result)).toEqual(toolOutputs(plain));
      const executed = (await ledgerOf(store, 'P-win')).filter((h) => h.execution !== null);
      expect(executed.map((h) => [h.decision.record.gate, h.outcome?.body.status, h.outcome?.body.error])).toEqual([
        ['openai-agents', 'failed', 'Error: winrm unreachable'],
      ]);
      // gateAgentTool over the built tool cannot see the error its errorFunction absorbed: recorded succeeded.
      const { store: other } = await setup();
      await run(
        agentWith(gate(tool(options), { proposition: 'P-win', action: high(true), store: other, now: clock.now }), restartModel(['server01'], 'failed')),
        'restart',
      );
      expect((await ledgerOf(other, 'P-win')).filter((h) => h.execution !== null).map((h) => h.outcome?.body.status)).toEqual(['succeeded']);
    });

    it('gate(tool options): a custom errorFunction gives the message; a succeeding execute is recorded succeeded', async () => {
      const { clock } = await setup();
      const restartWith = (store: EvidenceStore, fail: boolean) =>
        gate(
          {
            name: 'restart',
            description: 'r',
            parameters: z.object({ server: z.string() }),
            errorFunction: (_context: unknown, error: unknown) => `could not restart: ${(error as Error).message}`,
            execute: async ({ server }: { server: string }) => {
              if (fail) throw new Error('busy');
              return `restarted ${server}`;
            },
          },
          { proposition: 'P-win', action: high(true), store, now: clock.now },
        );
      // Each run's scripted call has the same call id, so each runs over its own ledger.
      const failing = await setup();
      const first = await run(agentWith(restartWith(failing.store, true), restartModel(['server01'], 'x')), 'restart');
      expect(toolOutputs(first)).toEqual(['could not restart: busy']);
      const working = await setup();
      const second = await run(agentWith(restartWith(working.store, false), restartModel(['server02'], 'x')), 'restart');
      expect(toolOutputs(second)).toEqual(['restarted server02']);
      const statusOf = async (store: EvidenceStore) => (await ledgerOf(store, 'P-win')).filter((h) => h.execution !== null).map((h) => h.outcome?.body.status);
      expect([await statusOf(failing.store), await statusOf(working.store)]).toEqual([['failed'], ['succeeded']]);
    });

    it('fails closed: over a ledger that cannot record, the run stops with a typed error and the tool never runs', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'ewp-oa-readonly-'));
      try {
        const file = join(dir, 'ledger.sqlite');
        const writer = new SqliteEvidenceStore(file);
        await writer.put(fixture('08-verified-now'));
        await writer.close();
        const readOnly = new SqliteEvidenceStore(file, { readOnly: true });
        const calls: string[] = [];
        const gated = gate(restartTool(calls), { proposition: 'P-win', action: high(true), store: readOnly, now: () => T0 });
        // The SDK reports it as a ToolCallError around the gate's DecisionError.
        await expect(run(agentWith(gated, restartModel(['server01'])), 'x')).rejects.toSatisfy(
          (e: unknown) => e instanceof ToolCallError && DecisionError.isInstance(e.error) && e.error.code === 'EWP_REFUSE_DECISION_NOT_RECORDED',
        );
        expect(calls).toEqual([]);
        await readOnly.close();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('record: false runs the call unrecorded; a gate name of the caller is kept', async () => {
      const { store, clock, calls, restart } = await setup();
      await run(agentWith(gate(restart, { proposition: 'P-win', action: high(true), store, now: clock.now, record: false }), restartModel(['server01'])), 'x');
      expect(calls).toEqual(['server01']);
      expect(await store.readEntries()).toEqual([]);
      await run(
        agentWith(gate(restart, { proposition: 'P-win', action: high(true), store, now: clock.now, record: { gate: 'ops-bot' } }), restartModel(['server02'])),
        'x',
      );
      expect(calls).toEqual(['server01', 'server02']);
      const ledger = await ledgerOf(store, 'P-win');
      expect(new Set(ledger.map((h) => h.decision.record.gate))).toEqual(new Set(['ops-bot']));
      expect(ledger.filter((h) => h.outcome !== null)).toHaveLength(1);
    });
  });
});
