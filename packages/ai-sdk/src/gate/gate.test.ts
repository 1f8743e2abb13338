import { loadFixtures } from '@ewp/conformance/pack';
import { InvalidArgumentError } from '@ewp/core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryEvidenceStore } from '@ewp/ledger';
import { SqliteEvidenceStore } from '@ewp/sqlite';
import { callClaimId, DECISION_ENTRY_KINDS, decisionHistory, listDecisions } from '@ewp/tools';
import { generateText, type ModelMessage, stepCountIs, streamText, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { scriptedModel } from '../../test/scripted-model.js';
import { gate } from './gate.js';

const fixtures = loadFixtures();
const fixture = (name: string) => structuredClone(fixtures.find((f) => f.name === name)!.view);
const T0 = new Date('2026-09-21T21:00:00Z');
const LATER = new Date('2026-10-05T00:00:00Z'); // the 7-day check of P-win is stale by then

async function setup() {
  const store = new MemoryEvidenceStore();
  await store.put(fixture('08-verified-now')); // P-win: ACCEPTED at T0, STALE at LATER
  await store.put(fixture('02-fork-x')); // P-x: OPEN, TENTATIVE
  let now = T0;
  const clock = { now: () => now, set: (d: Date) => (now = d) };
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
  return { store, clock, calls, restart };
}

const call = (input: unknown = { server: 'server01' }) => ({ toolCalls: [{ id: 'call-1', name: 'restart', input }] });

describe('gate', () => {
  it('MAY_ACT runs the tool', async () => {
    const { store, clock, calls, restart } = await setup();
    const gated = gate(restart, {
      name: 'restart',
      proposition: 'P-win',
      action: { id: 'restart', kind: 'restart', risk: 'high', reversible: true },
      store,
      now: clock.now,
    });
    const model = scriptedModel([call(), { text: 'Restarted.' }]);
    const result = await generateText({ model, tools: { restart: gated }, prompt: 'restart server01', stopWhen: stepCountIs(3) });
    expect(calls).toEqual(['server01']);
    expect(result.steps[0]!.toolResults[0]!.output).toEqual({ restarted: 'server01' });
    expect(result.text).toBe('Restarted.');
  });

  it('DENY refuses with a typed result the model reads, and does not run the tool', async () => {
    const { store, clock, calls, restart } = await setup();
    const gated = gate(restart, {
      name: 'restart',
      proposition: 'P-x',
      action: { id: 'restart', kind: 'restart', risk: 'high', reversible: false },
      store,
      now: clock.now,
    });
    const model = scriptedModel([call(), { text: 'I may not restart it.' }]);
    const result = await generateText({ model, tools: { restart: gated }, prompt: 'restart', stopWhen: stepCountIs(3) });
    expect(calls).toEqual([]);
    const output = result.steps[0]!.toolResults[0]!.output as Record<string, unknown>;
    expect(output).toMatchObject({ ewpGate: 'DENY', propositionId: 'P-x', actionId: 'restart', acceptance: 'TENTATIVE', conflict: 'OPEN' });
    expect(result.content.some((p) => p.type === 'tool-approval-request')).toBe(false);
    // The refusal reached the model in its next prompt.
    expect(JSON.stringify(model.prompts[1])).toContain('"ewpGate":"DENY"');
  });

  it('DENY when nothing is stored for the proposition', async () => {
    const { store, clock, calls, restart } = await setup();
    const gated = gate(restart, { name: 'restart', proposition: 'P-unknown', action: { id: 'a', kind: 'k', risk: 'low' }, store, now: clock.now });
    const result = await generateText({ model: scriptedModel([call(), { text: 'no' }]), tools: { restart: gated }, prompt: 'x', stopWhen: stepCountIs(3) });
    expect(calls).toEqual([]);
    expect(result.steps[0]!.toolResults[0]!.output).toMatchObject({ ewpGate: 'DENY', viewId: null, acceptance: null });
  });

  it('REQUIRE_CONFIRMATION asks for approval, and runs the tool after the approval round trip', async () => {
    const { store, clock, calls, restart } = await setup();
    clock.set(LATER);
    const gated = gate(restart, {
      name: 'restart',
      proposition: 'P-win',
      action: { id: 'restart', kind: 'restart', risk: 'medium', reversible: true },
      store,
      now: clock.now,
    });
    const tools = { restart: gated };
    const model = scriptedModel([call(), { text: 'Restarted after your confirmation.' }]);
    const messages: ModelMessage[] = [{ role: 'user', content: 'restart server01' }];
    const first = await generateText({ model, tools, messages, stopWhen: stepCountIs(3) });
    expect(calls).toEqual([]);
    const request = first.content.find((p) => p.type === 'tool-approval-request');
    expect(request).toBeDefined();
    if (request?.type !== 'tool-approval-request') throw new Error('no approval request');
    expect(request.toolCall.toolName).toBe('restart');
    messages.push(...first.response.messages, {
      role: 'tool',
      content: [{ type: 'tool-approval-response', approvalId: request.approvalId, approved: true }],
    });
    const second = await generateText({ model, tools, messages, stopWhen: stepCountIs(3) });
    expect(calls).toEqual(['server01']);
    expect(second.text).toBe('Restarted after your confirmation.');
    expect(JSON.stringify(model.prompts[1])).toContain('"restarted":"server01"');
  });

  it('a refused approval never runs the tool', async () => {
    const { store, clock, calls, restart } = await setup();
    clock.set(LATER);
    const gated = gate(restart, {
      name: 'restart',
      proposition: 'P-win',
      action: { id: 'r', kind: 'r', risk: 'medium', reversible: true },
      store,
      now: clock.now,
    });
    const model = scriptedModel([call(), { text: 'Not restarted.' }]);
    const messages: ModelMessage[] = [{ role: 'user', content: 'restart' }];
    const first = await generateText({ model, tools: { restart: gated }, messages });
    const request = first.content.find((p) => p.type === 'tool-approval-request');
    if (request?.type !== 'tool-approval-request') throw new Error('no approval request');
    messages.push(...first.response.messages, {
      role: 'tool',
      content: [{ type: 'tool-approval-response', approvalId: request.approvalId, approved: false, reason: 'not now' }],
    });
    await generateText({ model, tools: { restart: gated }, messages });
    expect(calls).toEqual([]);
  });

  it('decides again with the latest evidence when the approved call executes', async () => {
    const { store, clock, calls, restart } = await setup();
    clock.set(LATER);
    const gated = gate(restart, {
      name: 'restart',
      proposition: 'P-win',
      action: { id: 'r', kind: 'r', risk: 'medium', reversible: true },
      store,
      now: clock.now,
    });
    const model = scriptedModel([call(), { text: 'Refused.' }]);
    const messages: ModelMessage[] = [{ role: 'user', content: 'restart' }];
    const first = await generateText({ model, tools: { restart: gated }, messages });
    const request = first.content.find((p) => p.type === 'tool-approval-request');
    if (request?.type !== 'tool-approval-request') throw new Error('no approval request');
    // Before the human answers, new evidence arrives: the proposition is superseded.
    await store.extend('P-win', [{ kind: 'lineage', record: { from_id: 'P-win', to_id: 'P-win-2025', kind: 'superseded_by' } }]);
    const denyHigh = gate(restart, {
      name: 'restart',
      proposition: 'P-win',
      action: { id: 'r', kind: 'r', risk: 'high', reversible: true },
      store,
      now: clock.now,
    });
    messages.push(...first.response.messages, { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: request.approvalId, approved: true }] });
    const second = await generateText({ model, tools: { restart: denyHigh }, messages });
    expect(calls).toEqual([]);
    expect(second.text).toBe('Refused.');
    // The executed (approved) call returned the typed refusal, and the model read it.
    const seen = JSON.stringify(model.prompts[1]);
    expect(seen).toContain('"ewpGate":"DENY"');
    expect(seen).toContain('"currency":"SUPERSEDED"');
  });

  it('the same approval response sent twice executes the call once; the replay is refused with a typed error and recorded', async () => {
    const { store, clock, calls, restart } = await setup();
    clock.set(LATER);
    const gated = gate(restart, {
      name: 'restart',
      proposition: 'P-win',
      action: { id: 'r', kind: 'r', risk: 'medium', reversible: true },
      store,
      now: clock.now,
    });
    const tools = { restart: gated };
    const model = scriptedModel([call(), { text: 'Restarted.' }, { text: 'Already restarted.' }]);
    const first = await generateText({ model, tools, messages: [{ role: 'user', content: 'restart server01' }], stopWhen: stepCountIs(3) });
    const request = first.content.find((p) => p.type === 'tool-approval-request');
    if (request?.type !== 'tool-approval-request') throw new Error('no approval request');
    const approved: ModelMessage[] = [
      { role: 'user', content: 'restart server01' },
      ...first.response.messages,
      { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: request.approvalId, approved: true }] },
    ];
    await generateText({ model, tools, messages: approved, stopWhen: stepCountIs(3) });
    expect(calls).toEqual(['server01']);
    // The client sends the same messages again a minute later (a retried request, a replayed
    // conversation): the SDK executes the approved call again, the gate decides again, and refuses.
    clock.set(new Date(LATER.getTime() + 60_000));
    const replay = await generateText({ model, tools, messages: approved, stopWhen: stepCountIs(3) });
    expect(calls).toEqual(['server01']);
    // The SDK runs approved calls before the next model step and hands the model the error text of
    // the gate's DecisionError as the call's result.
    const [toolMessage] = replay.response.messages;
    expect(toolMessage).toMatchObject({
      role: 'tool',
      content: [
        { type: 'tool-result', toolCallId: 'call-1', output: { type: 'error-text', value: expect.stringContaining('was already executed under decision') } },
      ],
    });
    expect(JSON.stringify(model.prompts.at(-1))).toContain('does not run it again');
    // The ledger: every decision names this gate and the SDK's call; one of them ran, the replay's
    // refusal is its outcome, and the call was claimed once.
    const histories = await Promise.all((await listDecisions(store, { proposition: 'P-win' })).map((d) => decisionHistory(store, d.decision_id)));
    for (const h of histories) expect(h.decision.record).toMatchObject({ gate: 'ai-sdk', call_id: 'call-1' });
    expect(histories.filter((h) => h.confirmation !== null).map((h) => [h.execution === null ? 'not claimed' : 'claimed', h.outcome?.body.status])).toEqual([
      ['claimed', 'succeeded'],
      ['not claimed', 'call_already_executed'],
    ]);
    expect(await store.readEntries({ kind: DECISION_ENTRY_KINDS.call })).toMatchObject([{ id: callClaimId('ai-sdk', 'call-1') }]);
  });

  it('sees evidence another writer committed to a shared SQLite ledger since the last call', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ewp-ai-gate-'));
    try {
      const file = join(dir, 'ledger.sqlite');
      const agentSide = new SqliteEvidenceStore(file);
      const ingestSide = new SqliteEvidenceStore(file);
      await ingestSide.put(fixture('08-verified-now'));
      const calls: string[] = [];
      const restart = tool({
        description: 'Restart a server',
        inputSchema: z.object({ server: z.string() }),
        execute: async ({ server }) => {
          calls.push(server);
          return { restarted: server };
        },
      });
      const gated = gate(restart, {
        name: 'restart',
        proposition: 'P-win',
        action: { id: 'r', kind: 'r', risk: 'high', reversible: true },
        store: agentSide,
        now: () => T0,
      });
      await generateText({ model: scriptedModel([call(), { text: 'ok' }]), tools: { restart: gated }, prompt: 'x', stopWhen: stepCountIs(3) });
      expect(calls).toEqual(['server01']);
      // The ingest side records an opposing tool check: the next call is refused.
      const latest = (await ingestSide.get('P-win'))!;
      await ingestSide.extend('P-win', [{ kind: 'check', record: { ...latest.checks[0]!, check_id: 'k-down', result: 'opposes' } }]);
      const second = await generateText({ model: scriptedModel([call(), { text: 'no' }]), tools: { restart: gated }, prompt: 'x', stopWhen: stepCountIs(3) });
      expect(calls).toEqual(['server01']);
      expect(second.steps[0]!.toolResults[0]!.output).toMatchObject({ ewpGate: 'DENY', conflict: 'OPEN' });
      await agentSide.close();
      await ingestSide.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads the proposition and the action from the tool input', async () => {
    const { store, clock, calls, restart } = await setup();
    const gated = gate(restart, {
      name: 'restart',
      proposition: (input: { server: string }) => (input.server === 'server01' ? 'P-win' : 'P-x'),
      action: (input: { server: string }) => ({ id: `restart:${input.server}`, kind: 'restart', risk: 'high', reversible: true }),
      store,
      now: clock.now,
    });
    const model = scriptedModel([
      {
        toolCalls: [
          { id: 'a', name: 'restart', input: { server: 'server01' } },
          { id: 'b', name: 'restart', input: { server: 'other' } },
        ],
      },
      { text: 'done' },
    ]);
    const result = await generateText({ model, tools: { restart: gated }, prompt: 'restart both', stopWhen: stepCountIs(3) });
    expect(calls).toEqual(['server01']);
    const outputs = result.steps[0]!.toolResults.map((r) => r.output);
    expect(outputs).toContainEqual({ restarted: 'server01' });
    expect(outputs).toContainEqual(expect.objectContaining({ ewpGate: 'DENY', actionId: 'restart:other' }));
  });

  it('streams the approval request with streamText', async () => {
    const { store, clock, calls, restart } = await setup();
    clock.set(LATER);
    const gated = gate(restart, {
      name: 'restart',
      proposition: 'P-win',
      action: { id: 'r', kind: 'r', risk: 'medium', reversible: true },
      store,
      now: clock.now,
    });
    const model = scriptedModel([call(), { text: 'ok' }]);
    const messages: ModelMessage[] = [{ role: 'user', content: 'restart' }];
    const first = streamText({ model, tools: { restart: gated }, messages });
    const parts: string[] = [];
    for await (const part of first.fullStream) parts.push(part.type);
    expect(parts).toContain('tool-approval-request');
    expect(calls).toEqual([]);
    const content = await first.content;
    const request = content.find((p) => p.type === 'tool-approval-request');
    if (request?.type !== 'tool-approval-request') throw new Error('no approval request');
    messages.push(...(await first.response).messages, {
      role: 'tool',
      content: [{ type: 'tool-approval-response', approvalId: request.approvalId, approved: true }],
    });
    const second = streamText({ model, tools: { restart: gated }, messages, stopWhen: stepCountIs(3) });
    expect(await second.text).toBe('ok');
    expect(calls).toEqual(['server01']);
  });

  it("keeps the inner tool's own approval when the warrant says MAY_ACT", async () => {
    const { store, clock, calls, restart } = await setup();
    const careful = tool({ ...restart, needsApproval: true });
    const gated = gate(careful, {
      name: 'restart',
      proposition: 'P-win',
      action: { id: 'r', kind: 'r', risk: 'low', reversible: true },
      store,
      now: clock.now,
    });
    const result = await generateText({ model: scriptedModel([call()]), tools: { restart: gated }, prompt: 'restart' });
    expect(result.content.some((p) => p.type === 'tool-approval-request')).toBe(true);
    expect(calls).toEqual([]);
  });

  it('refuses a tool without execute and a missing store', async () => {
    const { store, restart } = await setup();
    const noExecute = tool({ description: 'x', inputSchema: z.object({}), outputSchema: z.object({}) });
    const refusal = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return e;
      }
      throw new Error('expected a refusal');
    };
    const noExec = refusal(() => gate(noExecute, { name: 'restart', proposition: 'P', action: { id: 'a', kind: 'k' }, store }));
    expect(InvalidArgumentError.isInstance(noExec)).toBe(true);
    expect(noExec).toMatchObject({ code: 'EWP_REFUSE_INVALID_ARGUMENT', path: 'tool.execute', message: expect.stringMatching(/execute/) });
    const noStore = refusal(() => gate(restart, { name: 'restart', proposition: 'P', action: { id: 'a', kind: 'k' }, store: undefined as never }));
    expect(InvalidArgumentError.isInstance(noStore)).toBe(true);
    expect(noStore).toMatchObject({ code: 'EWP_REFUSE_INVALID_ARGUMENT', path: 'options.store' });
    // AI SDK tools carry no name: the gate is given the one the model calls it by.
    const noName = refusal(() => gate(restart, { proposition: 'P', store } as never));
    expect(noName).toMatchObject({ code: 'EWP_REFUSE_INVALID_ARGUMENT', path: 'options.name' });
    // The one check of the gate's options (checkGateOptions), made when the tool is wrapped.
    const both = refusal(() => gate(restart, { name: 'restart', claim: 'c', proposition: 'P', store }));
    expect(both).toMatchObject({ code: 'EWP_REFUSE_INVALID_ARGUMENT', path: 'options.claim' });
    const badRisk = refusal(() => gate(restart, { name: 'restart', claim: 'c', action: { risk: 'huge' as never }, store }));
    expect(badRisk).toMatchObject({ code: 'EWP_REFUSE_INVALID_ARGUMENT', path: 'options.action.risk' });
  });
});
