/**
 * The Claude Code record path over a SQLite ledger: decisions under the gate `claude-code` with Claude's
 * tool_use_id, an allow claims the call once, PostToolUse / PostToolUseFailure record the outcome, and
 * a call Claude Code's own prompt confirmed (`ask`) is confirmed and claimed when it reports it ran.
 */
import { rmSync } from 'node:fs';
import { SqliteEvidenceStore } from '@ewp/sqlite';
import { decisionHistory, listDecisions } from '@ewp/tools';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureLedger, LATER, MAPPING_JSON, T0 } from '../test/ledger.js';
import { warrantPostToolUseHook, warrantPreToolUseHook } from './can-use-tool.js';
import { recordPostToolUseEvent } from './pre-tool-use.js';
import { parseToolMapping } from './tool-mapping.js';

let ledger: { dir: string; file: string };
let store: SqliteEvidenceStore;
beforeAll(async () => {
  ledger = await fixtureLedger();
  store = new SqliteEvidenceStore(ledger.file);
});
afterAll(async () => {
  await store.close();
  rmSync(ledger.dir, { recursive: true, force: true });
});
const mapping = parseToolMapping(MAPPING_JSON);
const event = (id: string, extra: Record<string, unknown> = {}) => ({
  hook_event_name: 'PreToolUse',
  tool_name: 'mcp__ops__restart',
  tool_input: { server: 'a' },
  tool_use_id: id,
  ...extra,
});
const decisionsOf = async (id: string) => (await listDecisions(store)).filter((d) => d.record.call_id === id);

describe('Claude Code records every decision under its own gate and call id, once per call', () => {
  it('allow: recorded under claude-code with the tool_use_id, claimed; PostToolUse records succeeded; a replayed PreToolUse is denied', async () => {
    const pre = warrantPreToolUseHook({ mapping, store, now: () => T0 });
    const post = warrantPostToolUseHook({ mapping, store, now: () => T0 });
    expect(await pre(event('toolu_a'))).toMatchObject({ hookSpecificOutput: { permissionDecision: 'allow' } });
    const [d] = await decisionsOf('toolu_a');
    expect(d?.record.gate).toBe('claude-code');
    expect((await decisionHistory(store, d!.decision_id)).execution).not.toBeNull();
    expect(await post({ ...event('toolu_a'), hook_event_name: 'PostToolUse', tool_response: {} })).toEqual({});
    expect((await decisionHistory(store, d!.decision_id)).outcome?.body).toMatchObject({ status: 'succeeded', error: null });
    const again = await pre(event('toolu_a'));
    expect(again).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: expect.stringContaining('already executed') } });
  });

  it('PostToolUseFailure records failed with Claude’s error', async () => {
    const pre = warrantPreToolUseHook({ mapping, store, now: () => T0 });
    await pre(event('toolu_b'));
    const outcome = await recordPostToolUseEvent({ ...event('toolu_b'), hook_event_name: 'PostToolUseFailure', error: 'exit 2' }, { mapping, store });
    expect(outcome.recorded).toBe(true);
    const [d] = await decisionsOf('toolu_b');
    expect((await decisionHistory(store, d!.decision_id)).outcome?.body).toMatchObject({ status: 'failed', error: 'exit 2' });
  });

  it('ask: nothing claimed until Claude Code reports the call ran; then confirmed by its prompt, claimed and recorded', async () => {
    const pre = warrantPreToolUseHook({ mapping, store, now: () => LATER });
    expect(await pre(event('toolu_c'))).toMatchObject({ hookSpecificOutput: { permissionDecision: 'ask' } });
    const [d] = await decisionsOf('toolu_c');
    expect(d?.record.decision).toBe('REQUIRE_CONFIRMATION');
    expect((await decisionHistory(store, d!.decision_id)).execution).toBeNull();
    const outcome = await recordPostToolUseEvent({ ...event('toolu_c'), hook_event_name: 'PostToolUse' }, { mapping, store });
    expect(outcome).toEqual({ recorded: true, decisionId: d!.decision_id, observed: [] });
    const history = await decisionHistory(store, d!.decision_id);
    expect(history.confirmation?.body).toMatchObject({ confirmed_by: 'claude-code permission prompt of toolu_c' });
    expect(history.outcome?.body).toMatchObject({ status: 'succeeded' });
  });

  it('a report for a call the gate never decided records nothing; a malformed report is refused naming the field', async () => {
    expect(await recordPostToolUseEvent({ ...event('toolu_never'), hook_event_name: 'PostToolUse' }, { mapping, store })).toMatchObject({
      recorded: false,
      reason: expect.stringContaining('no decision is recorded'),
    });
    await expect(recordPostToolUseEvent({ ...event('x'), hook_event_name: 'PostToolUse', tool_use_id: 7 }, { mapping, store })).rejects.toMatchObject({
      code: 'WRONG_TYPE',
      path: '$.tool_use_id',
    });
  });
});
