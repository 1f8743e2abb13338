import { InvalidArgumentError } from '@ewp/core';
import { MemoryEvidenceStore } from '@ewp/ledger';
import { Agent, MemorySession, run, setTracingDisabled } from '@openai/agents-core';
import { assistantMessage, functionCall, ScriptedModel } from '@openai/agents-core/testing';
import { describe, expect, it } from 'vitest';
import { restartTool } from '../../test/scripted-agent.js';
import { EvidenceSession } from './evidence-session.js';

setTracingDisabled(true);
const AT = new Date('2026-09-21T21:00:00Z');

describe('EvidenceSession', () => {
  it('records every message turn of a run as an assertion of origin turn; tool calls and results are not turns', async () => {
    const store = new MemoryEvidenceStore();
    const session = new EvidenceSession({ store, session: new MemorySession({ sessionId: 'ops-1' }), now: () => AT });
    const model = new ScriptedModel([
      [functionCall('restart', { server: 'server01' }, { callId: 'c1' })],
      [assistantMessage('server01 runs Windows Server 2022')],
    ]);
    const agent = new Agent({ name: 'ops', model, tools: [restartTool()] });
    const result = await run(agent, 'Which OS does server01 run?', { session });
    expect(result.finalOutput).toBe('server01 runs Windows Server 2022');
    // The session kept the whole run: the user turn, the call, its result, the answer.
    const items = await session.getItems();
    expect(items.map((i) => ('role' in i ? i.role : i.type))).toEqual(['user', 'function_call', 'function_call_result', 'assistant']);
    const view = await store.get('chat:ops-1');
    expect(view?.assertions.map((a) => [a.asserted_by, a.text, a.source.origin_type])).toEqual([
      ['chat.user', 'Which OS does server01 run?', 'turn'],
      ['chat.assistant', 'server01 runs Windows Server 2022', 'turn'],
    ]);
    expect(view?.assertions[0]?.source.origin_locator).toBe('openai-agents:session:ops-1#0');
    expect(view?.assertions[1]?.source.origin_locator).toBe('openai-agents:session:ops-1#3');
    // Said twice is not verified: a transcript alone never warrants acceptance.
    const w = await session.warrant();
    expect(w?.warrant.verification).toBe('NONE');
    expect(w?.warrant.acceptance).not.toBe('ACCEPTED');
  });

  it('the next run reads its history from the wrapped session, and records only the new turns', async () => {
    const store = new MemoryEvidenceStore();
    const session = new EvidenceSession({ store, session: new MemorySession({ sessionId: 's2' }), now: () => AT });
    const model = new ScriptedModel([[assistantMessage('first answer')], [assistantMessage('second answer')]]);
    const agent = new Agent({ name: 'a', model });
    await run(agent, 'first question', { session });
    await run(agent, 'second question', { session });
    expect(JSON.stringify(model.lastCall?.request.input)).toContain('first answer');
    expect((await store.get('chat:s2'))?.assertions.map((a) => a.text)).toEqual(['first question', 'first answer', 'second question', 'second answer']);
  });

  it('propositionOf routes turns to propositions, or records nothing for a turn', async () => {
    const store = new MemoryEvidenceStore();
    const session = new EvidenceSession({
      store,
      session: new MemorySession({ sessionId: 's3' }),
      now: () => AT,
      propositionOf: (item) => (item.role === 'user' ? 'P-win' : undefined),
    });
    await session.addItems([
      {
        role: 'user',
        content: [
          { type: 'input_text', text: 'server01 runs ' },
          { type: 'input_text', text: 'Windows' },
        ],
      },
      { role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'noted' }] },
    ]);
    expect((await store.get('P-win'))?.assertions.map((a) => a.text)).toEqual(['server01 runs Windows']);
    expect(await store.get('chat:s3')).toBeUndefined();
  });

  it('popItem and clearSession change the history, never the ledger (the turns were said)', async () => {
    const store = new MemoryEvidenceStore();
    const session = new EvidenceSession({ store, session: new MemorySession({ sessionId: 's4' }), now: () => AT });
    await session.addItems([
      { role: 'user', content: 'a' },
      { role: 'user', content: 'b' },
    ]);
    expect(await session.popItem()).toMatchObject({ content: 'b' });
    await session.clearSession();
    expect(await session.getItems()).toEqual([]);
    expect((await store.get('chat:s4'))?.assertions.map((a) => a.text)).toEqual(['a', 'b']);
    // The same position after a clear names other content: a new record, not a collision.
    await session.addItems([{ role: 'user', content: 'c' }]);
    expect((await store.get('chat:s4'))?.assertions.map((a) => a.text)).toEqual(['a', 'b', 'c']);
  });

  it('a failed ledger write keeps nothing in the history', async () => {
    const store = new MemoryEvidenceStore();
    await store.close();
    const session = new EvidenceSession({ store, session: new MemorySession({ sessionId: 's5' }) });
    await expect(session.addItems([{ role: 'user', content: 'x' }])).rejects.toThrow();
    expect(await session.getItems()).toEqual([]);
  });

  it('refuses a missing store with a typed error', () => {
    try {
      new EvidenceSession({ store: undefined as never });
      expect.unreachable();
    } catch (e) {
      expect(InvalidArgumentError.isInstance(e) && e.path === 'options.store').toBe(true);
    }
  });
});
