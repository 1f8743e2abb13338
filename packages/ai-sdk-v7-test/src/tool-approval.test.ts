/**
 * `toolApproval()` under AI SDK 7 (ai@7, MockLanguageModelV4): the gate's three decisions as the
 * SDK's `approved` / `denied` / `user-approval`, through `generateText`, `streamText` and
 * `ToolLoopAgent`, decided again on the latest evidence when an approved call comes back.
 */
import { toolApproval } from '@ewp/ai-sdk';
import { InvalidArgumentError } from '@ewp/core';
import { loadFixtures } from '@ewp/conformance/pack';
import { MemoryEvidenceStore } from '@ewp/ledger';
import { generateText, type ModelMessage, stepCountIs, streamText, ToolLoopAgent, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { scriptedModelV4 } from '../test/scripted-model-v4.js';

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
    execute: async ({ server }) => {
      calls.push(server);
      return { restarted: server };
    },
  });
  return { store, clock, calls, tools: { restart } };
}

const call = (input: unknown = { server: 'server01' }) => ({ toolCalls: [{ id: 'call-1', name: 'restart', input }] });
const HIGH_REVERSIBLE = { id: 'restart', kind: 'restart', risk: 'high', reversible: true } as const;
/** At LATER, P-win's check is stale (acceptance TENTATIVE): a medium-risk action needs a human. */
const MEDIUM_REVERSIBLE = { id: 'restart', kind: 'restart', risk: 'medium', reversible: true } as const;

function approvalRequestOf(content: readonly { type: string }[]) {
  const request = content.find((p) => p.type === 'tool-approval-request') as
    | { type: 'tool-approval-request'; approvalId: string; reason?: string; toolCall: { toolName: string } }
    | undefined;
  if (request === undefined) throw new Error('no approval request');
  return request;
}

describe('toolApproval with AI SDK 7', () => {
  it('MAY_ACT: approved, the tool runs (generateText)', async () => {
    const { store, clock, calls, tools } = await setup();
    const model = scriptedModelV4([call(), { text: 'Restarted.' }]);
    const result = await generateText({
      model,
      tools,
      toolApproval: toolApproval({ restart: { proposition: 'P-win', action: HIGH_REVERSIBLE, store, now: clock.now } }),
      prompt: 'restart server01',
      stopWhen: stepCountIs(3),
    });
    expect(calls).toEqual(['server01']);
    expect(result.steps[0]!.toolResults[0]!.output).toEqual({ restarted: 'server01' });
    expect(result.text).toBe('Restarted.');
  });

  it('DENY: denied with the deciding rule as reason; the tool never runs and the model reads the reason', async () => {
    const { store, clock, calls, tools } = await setup();
    const model = scriptedModelV4([call(), { text: 'I may not restart it.' }]);
    const result = await generateText({
      model,
      tools,
      toolApproval: toolApproval({
        restart: { proposition: 'P-x', action: { ...HIGH_REVERSIBLE, reversible: false }, store, now: clock.now },
      }),
      prompt: 'restart',
      stopWhen: stepCountIs(3),
    });
    expect(calls).toEqual([]);
    expect(result.text).toBe('I may not restart it.');
    const seen = JSON.stringify(model.prompts[1]);
    expect(seen).toContain('execution-denied');
    expect(seen).toContain('gate rule high.requires_accepted');
    expect(seen).toContain('conflict OPEN');
  });

  it('DENY when nothing is stored for the proposition', async () => {
    const { store, clock, calls, tools } = await setup();
    const model = scriptedModelV4([call(), { text: 'no' }]);
    await generateText({
      model,
      tools,
      toolApproval: toolApproval({ restart: { proposition: 'P-unknown', action: { id: 'a', kind: 'k' }, store, now: clock.now } }),
      prompt: 'x',
      stopWhen: stepCountIs(3),
    });
    expect(calls).toEqual([]);
    expect(JSON.stringify(model.prompts[1])).toContain('no stored evidence for P-unknown');
  });

  it('REQUIRE_CONFIRMATION: user-approval with the rule as reason, and the tool runs after the human approves', async () => {
    const { store, clock, calls, tools } = await setup();
    clock.set(LATER);
    const approval = toolApproval({ restart: { proposition: 'P-win', action: MEDIUM_REVERSIBLE, store, now: clock.now } });
    const model = scriptedModelV4([call(), { text: 'Restarted after your confirmation.' }]);
    const messages: ModelMessage[] = [{ role: 'user', content: 'restart server01' }];
    const first = await generateText({ model, tools, toolApproval: approval, messages, stopWhen: stepCountIs(3) });
    expect(calls).toEqual([]);
    const request = approvalRequestOf(first.content);
    expect(request.toolCall.toolName).toBe('restart');
    expect(request.reason).toContain('gate rule medium.stale_tentative_or_irreversible');
    expect(request.reason).toContain('currency STALE');
    expect(request.reason).toContain('P-win');
    messages.push(...first.response.messages, { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: request.approvalId, approved: true }] });
    const second = await generateText({ model, tools, toolApproval: approval, messages, stopWhen: stepCountIs(3) });
    expect(calls).toEqual(['server01']);
    expect(second.text).toBe('Restarted after your confirmation.');
  });

  it('a refused approval never runs the tool', async () => {
    const { store, clock, calls, tools } = await setup();
    clock.set(LATER);
    const approval = toolApproval({ restart: { proposition: 'P-win', action: MEDIUM_REVERSIBLE, store, now: clock.now } });
    const model = scriptedModelV4([call(), { text: 'Not restarted.' }]);
    const messages: ModelMessage[] = [{ role: 'user', content: 'restart' }];
    const first = await generateText({ model, tools, toolApproval: approval, messages });
    const request = approvalRequestOf(first.content);
    messages.push(...first.response.messages, {
      role: 'tool',
      content: [{ type: 'tool-approval-response', approvalId: request.approvalId, approved: false, reason: 'not now' }],
    });
    await generateText({ model, tools, toolApproval: approval, messages });
    expect(calls).toEqual([]);
  });

  it('decides again on the latest evidence when the approved call comes back: superseded meanwhile, denied', async () => {
    const { store, clock, calls, tools } = await setup();
    clock.set(LATER);
    // The action's risk is read at each decision; it is raised with the new evidence below.
    let action: { id: string; kind: string; risk: 'medium' | 'high'; reversible: boolean } = { ...MEDIUM_REVERSIBLE };
    const approval = toolApproval({ restart: { proposition: 'P-win', action: () => action, store, now: clock.now } });
    const model = scriptedModelV4([call(), { text: 'Refused.' }]);
    const messages: ModelMessage[] = [{ role: 'user', content: 'restart' }];
    const first = await generateText({ model, tools, toolApproval: approval, messages });
    const request = approvalRequestOf(first.content);
    // Before the human answers, new evidence arrives: the proposition is superseded.
    await store.extend('P-win', [{ kind: 'lineage', record: { from_id: 'P-win', to_id: 'P-win-2025', kind: 'superseded_by' } }]);
    action = { ...HIGH_REVERSIBLE };
    messages.push(...first.response.messages, { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: request.approvalId, approved: true }] });
    const second = await generateText({ model, tools, toolApproval: approval, messages, stopWhen: stepCountIs(3) });
    expect(calls).toEqual([]);
    expect(second.text).toBe('Refused.');
    // Denied on the new evidence (which rule words it depends on what the gate reads first).
    const seen = JSON.stringify(model.prompts[1]);
    expect(seen).toContain('"type":"execution-denied","reason":"P-win');
  });

  it('streamText: the approval request streams with its reason; the approved call runs', async () => {
    const { store, clock, calls, tools } = await setup();
    clock.set(LATER);
    const approval = toolApproval({ restart: { proposition: 'P-win', action: MEDIUM_REVERSIBLE, store, now: clock.now } });
    const model = scriptedModelV4([call(), { text: 'ok' }]);
    const messages: ModelMessage[] = [{ role: 'user', content: 'restart' }];
    const first = streamText({ model, tools, toolApproval: approval, messages });
    const parts: string[] = [];
    for await (const part of first.fullStream) parts.push(part.type);
    expect(parts).toContain('tool-approval-request');
    expect(calls).toEqual([]);
    const request = approvalRequestOf(await first.content);
    expect(request.reason).toContain('medium.stale_tentative_or_irreversible');
    messages.push(...(await first.response).messages, {
      role: 'tool',
      content: [{ type: 'tool-approval-response', approvalId: request.approvalId, approved: true }],
    });
    const second = streamText({ model, tools, toolApproval: approval, messages, stopWhen: stepCountIs(3) });
    expect(await second.text).toBe('ok');
    expect(calls).toEqual(['server01']);
  });

  it('streamText: DENY never runs the tool', async () => {
    const { store, clock, calls, tools } = await setup();
    const model = scriptedModelV4([call(), { text: 'denied' }]);
    const result = streamText({
      model,
      tools,
      toolApproval: toolApproval({ restart: { proposition: 'P-x', action: { ...HIGH_REVERSIBLE, reversible: false }, store, now: clock.now } }),
      prompt: 'restart',
      stopWhen: stepCountIs(3),
    });
    expect(await result.text).toBe('denied');
    expect(calls).toEqual([]);
    expect(JSON.stringify(model.prompts[1])).toContain('high.requires_accepted');
  });

  it('ToolLoopAgent: MAY_ACT runs, DENY refuses, per input', async () => {
    const { store, clock, calls, tools } = await setup();
    const model = scriptedModelV4([
      {
        toolCalls: [
          { id: 'a', name: 'restart', input: { server: 'server01' } },
          { id: 'b', name: 'restart', input: { server: 'other' } },
        ],
      },
      { text: 'done' },
    ]);
    const agent = new ToolLoopAgent({
      model,
      tools,
      toolApproval: toolApproval({
        restart: {
          proposition: (input: { server: string }) => (input.server === 'server01' ? 'P-win' : 'P-x'),
          action: (input: { server: string }) => ({ id: `restart:${input.server}`, kind: 'restart', risk: 'high', reversible: false }),
          store,
          now: clock.now,
        },
      }),
      stopWhen: stepCountIs(3),
    });
    const result = await agent.generate({ prompt: 'restart both' });
    expect(calls).toEqual(['server01']);
    expect(result.text).toBe('done');
    expect(JSON.stringify(model.prompts[1])).toContain('P-x: gate rule high.requires_accepted');
  });

  it('ToolLoopAgent.stream: REQUIRE_CONFIRMATION pauses for the human', async () => {
    const { store, clock, calls, tools } = await setup();
    clock.set(LATER);
    const agent = new ToolLoopAgent({
      model: scriptedModelV4([call()]),
      tools,
      toolApproval: toolApproval({ restart: { proposition: 'P-win', action: MEDIUM_REVERSIBLE, store, now: clock.now } }),
    });
    const stream = await agent.stream({ prompt: 'restart' });
    const request = approvalRequestOf(await stream.content);
    expect(request.reason).toContain('medium.stale_tentative_or_irreversible');
    expect(calls).toEqual([]);
  });

  it("a tool without an entry keeps its own needsApproval (the SDK's rule)", async () => {
    const { store, clock, calls, tools } = await setup();
    const careful = tool({ ...tools.restart, needsApproval: true });
    const result = await generateText({
      model: scriptedModelV4([{ toolCalls: [{ id: 'c', name: 'careful', input: { server: 's' } }] }]),
      tools: { ...tools, careful },
      toolApproval: toolApproval({ restart: { proposition: 'P-win', action: HIGH_REVERSIBLE, store, now: clock.now } }),
      prompt: 'x',
    });
    expect(result.content.some((p) => p.type === 'tool-approval-request')).toBe(true);
    expect(calls).toEqual([]);
  });

  it('refuses gates that are not an object, and an entry without a store, naming the field', () => {
    expect(() => toolApproval(null as never)).toThrow(InvalidArgumentError);
    try {
      toolApproval({ restart: { proposition: 'P', action: { id: 'a', kind: 'k' }, store: undefined as never } });
      expect.unreachable();
    } catch (e) {
      expect(InvalidArgumentError.isInstance(e)).toBe(true);
      expect((e as InvalidArgumentError).path).toBe('gates.restart.store');
    }
  });
});
