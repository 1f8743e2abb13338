import { loadFixtures } from '@ewp/conformance/pack';
import { InvalidArgumentError } from '@ewp/core';
import { MemoryEvidenceStore } from '@ewp/ledger';
import { agentContextText, MemoryLedger } from '@ewp/memory';
import { Agent, type MastraDBMessage } from '@mastra/core/agent';
import type { Processor } from '@mastra/core/processors';
import { InMemoryStore } from '@mastra/core/storage';
import { Memory } from '@mastra/memory';
import { describe, expect, it } from 'vitest';
import { scriptedModel } from '../../../ai-sdk/test/scripted-model.js';
import { WarrantMemoryProcessor } from './warrant-memory-processor.js';

const fixtures = loadFixtures();
const fixture = (name: string) => structuredClone(fixtures.find((f) => f.name === name)!.view);
const T0 = new Date('2026-09-21T21:00:00Z');

/** A message as Mastra's storage keeps it, optionally naming the proposition it speaks for. */
function stored(id: string, role: 'user' | 'assistant', text: string, at: number, proposition?: string): MastraDBMessage {
  return {
    id,
    role,
    threadId: 't1',
    resourceId: 'u1',
    createdAt: new Date(T0.getTime() - 60_000 + at),
    content: { format: 2, parts: [{ type: 'text', text }], ...(proposition ? { metadata: { proposition_id: proposition } } : {}) },
  };
}

/** A processor after ours that keeps what reached it. */
function capture(seen: MastraDBMessage[][]): Processor<'capture'> {
  return {
    id: 'capture',
    processInput: ({ messages }) => {
      seen.push(messages);
      return messages;
    },
  };
}

async function setup() {
  const store = new MemoryEvidenceStore();
  await store.put(fixture('08-verified-now')); // P-win: ACCEPTED, EXTERNAL at T0
  await store.put(fixture('02-fork-x')); // P-x: OPEN conflict
  const memory = new Memory({ storage: new InMemoryStore(), options: { lastMessages: 10 } });
  await memory.saveThread({ thread: { id: 't1', resourceId: 'u1', title: 'ops', createdAt: T0, updatedAt: T0 } });
  await memory.saveMessages({
    messages: [
      stored('m1', 'user', 'server01 runs Windows Server 2022', 1, 'P-win'),
      stored('m2', 'assistant', 'X holds', 2, 'P-x'),
      stored('m3', 'user', 'the deploy freeze ended', 3, 'P-freeze'),
      stored('m4', 'assistant', 'noted', 4),
    ],
  });
  return { store, memory };
}

describe('WarrantMemoryProcessor', () => {
  it('attaches the warrant to each recalled message that names a proposition, and says it to the model', async () => {
    const { store, memory } = await setup();
    const seen: MastraDBMessage[][] = [];
    const model = scriptedModel([{ text: 'ok' }]);
    const agent = new Agent({
      id: 'ops',
      name: 'ops',
      instructions: 'Operate servers.',
      model,
      memory,
      inputProcessors: [new WarrantMemoryProcessor({ store, now: () => T0 }), capture(seen) as never],
    });
    await agent.generate('may I restart server01?', { memory: { thread: 't1', resource: 'u1' } });
    const byId = Object.fromEntries(seen[0]!.map((m) => [m.id, m.content.metadata?.ewp]));
    expect(byId.m1).toMatchObject({ propositionId: 'P-win', acceptance: 'ACCEPTED', verification: 'EXTERNAL', unrecorded: false });
    expect(byId.m2).toMatchObject({ propositionId: 'P-x', acceptance: 'TENTATIVE', conflict: 'OPEN' });
    expect(byId.m3).toMatchObject({ propositionId: 'P-freeze', viewId: null, acceptance: null, unrecorded: true });
    expect(byId.m4).toBeUndefined(); // names no proposition
    // The new user message is input, not recalled: no warrant on it.
    expect(seen[0]!.find((m) => m.role === 'user' && JSON.stringify(m.content).includes('may I restart'))?.content.metadata?.ewp).toBeUndefined();
    const prompt = JSON.stringify(model.prompts[0]);
    expect(prompt).toContain('P-win: acceptance ACCEPTED, conflict NONE, verification EXTERNAL');
    expect(prompt).toContain('P-x: acceptance TENTATIVE, conflict OPEN');
    expect(prompt).toContain('P-freeze: no recorded evidence');
  });

  it('adds the hot and confirmed memories of an @ewp/memory ledger, as two labelled parts in the shared rendering', async () => {
    const { store, memory } = await setup();
    const ledger = new MemoryLedger(new MemoryEvidenceStore(), { now: () => T0.toISOString() });
    const fact = await ledger.store({ text: 'The backup job starts at 06:00', class: 'observation', source: 'scheduler' });
    await ledger.store({ text: 'The backup job starts at 06:00 (seen in the log)', class: 'observation', source: 'log', supports: [fact.hash] });
    await ledger.store({ text: 'The disk is probably failing', class: 'hypothesis' });
    const window = await ledger.store({ text: 'The maintenance window is 05:00', class: 'observation', source: 'wiki' });
    const calendar = await ledger.store({ text: 'The change calendar moved maintenance to 04:00', class: 'observation', source: 'calendar' });
    await ledger.refute(calendar.hash, window.hash);
    await ledger.recall({ query: 'disk failing' }); // recall makes it hot, not confirmed
    await ledger.recall({ query: 'maintenance window 05:00' });
    const model = scriptedModel([{ text: 'ok' }]);
    const agent = new Agent({
      id: 'ops',
      name: 'ops',
      instructions: 'x',
      model,
      memory,
      inputProcessors: [new WarrantMemoryProcessor({ store, memory: ledger, now: () => T0 })],
    });
    await agent.generate('what do we know?', { memory: { thread: 't1', resource: 'u1' } });
    const context = await ledger.autoContext({ at: T0.toISOString() });
    const prompt = JSON.stringify(model.prompts[0]);
    expect(prompt).toContain(JSON.stringify(context.hot.label).slice(1, -1));
    expect(prompt).toContain(JSON.stringify(context.confirmed.label).slice(1, -1));
    expect(context.hot.rows.some((r) => r.text === 'The disk is probably failing')).toBe(true);
    expect(context.confirmed.rows.some((r) => r.text === 'The disk is probably failing')).toBe(false);
    const [hotPart, confirmedPart] = prompt.split(JSON.stringify(context.confirmed.label).slice(1, -1));
    // The labels of agentContextText, as every binding shows them: a hypothesis and a disputed memory say so in front of their text.
    expect(hotPart).toContain('- [HYPOTHESIS] The disk is probably failing (hypothesis');
    expect(hotPart).toContain('- [DISPUTED] The maintenance window is 05:00 (observation');
    expect(confirmedPart).not.toContain('The disk is probably failing');
    expect(prompt).toContain(JSON.stringify(agentContextText(context)).slice(1, -1));
  });

  it('refuses a missing store with a typed error', () => {
    try {
      new WarrantMemoryProcessor({ store: undefined as never });
      expect.unreachable();
    } catch (e) {
      expect(InvalidArgumentError.isInstance(e) && e.path === 'options.store').toBe(true);
    }
  });
});
