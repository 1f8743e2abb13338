import { REFERENCE_V2, warrantNow } from '@ewp/core';
import { MemoryEvidenceStore } from '@ewp/ledger';
import { describe, expect, it } from 'vitest';
import { recordTurn, turnAssertion } from './turn-evidence.js';

const AT = new Date('2026-09-21T21:00:00Z');
const turn = { sessionId: 's 1', locatorScheme: 'test:chat', index: 0, role: 'user', text: 'server01 runs Windows', propositionId: 'P', at: AT };

describe('the turn rule', () => {
  it('a turn is an assertion of origin turn with its own lineage, its id derived from position, time and content', () => {
    const a = turnAssertion(turn);
    expect(a).toMatchObject({
      proposition_id: 'P',
      text: 'server01 runs Windows',
      asserted_by: 'chat.user',
      assertion_confidence: 0.5,
      asserted_at: AT.toISOString(),
    });
    expect(a.source).toMatchObject({ origin_type: 'turn', origin_locator: 'test:chat:s%201#0', observed_at: AT.toISOString() });
    expect(a.source.lineage_id).toBe(a.source.source_id);
    expect(a.source.content_hash).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(turnAssertion({ ...turn, text: 'other' }).assertion_id).not.toBe(a.assertion_id);
    expect(turnAssertion({ ...turn, messageId: 'm-7' }).assertion_id).toBe('chat:s 1:m-7:a');
  });

  it('records a turn once, and a turn alone never makes a claim more than TENTATIVE', async () => {
    const store = new MemoryEvidenceStore();
    await recordTurn(store, turn);
    await recordTurn(store, turn);
    await recordTurn(store, { ...turn, index: 1, role: 'assistant', text: 'yes it does' });
    const view = await store.get('P');
    expect(view?.assertions.map((a) => a.asserted_by)).toEqual(['chat.user', 'chat.assistant']);
    const w = warrantNow(view!, REFERENCE_V2, AT.toISOString());
    expect(w.warrant.acceptance).not.toBe('ACCEPTED');
    expect(w.warrant.verification).toBe('NONE');
  });
});
