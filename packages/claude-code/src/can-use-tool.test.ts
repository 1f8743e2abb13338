import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CanUseTool, HookCallback } from '@anthropic-ai/claude-agent-sdk';
import { SqliteEvidenceStore } from '@ewp/sqlite';
import { claimProposition } from '@ewp/tools';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureLedger, LATER, MAPPING_JSON, T0 } from '../test/ledger.js';
import { warrantCanUseTool, warrantPostToolUseHook, warrantPreToolUseHook } from './can-use-tool.js';
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
const signal = new AbortController().signal;
let uses = 0;
/** The SDK's options for one call: each call has its own tool use id (a claimed id runs once). */
const sdkOptions = () => ({ signal, toolUseID: `toolu_${++uses}`, requestId: 'r1' }) as Parameters<CanUseTool>[2];

describe('warrantCanUseTool (Claude Agent SDK canUseTool)', () => {
  it('MAY_ACT allows with the input unchanged', async () => {
    const canUseTool: CanUseTool = warrantCanUseTool({ mapping, store, now: () => T0 });
    expect(await canUseTool('mcp__ops__restart', { server: 'a' }, sdkOptions())).toEqual({ behavior: 'allow', updatedInput: { server: 'a' } });
  });

  it('DENY denies with the deciding rule', async () => {
    const canUseTool: CanUseTool = warrantCanUseTool({ mapping, store, now: () => T0 });
    const result = await canUseTool('mcp__ops__drop_table', { table: 'users' }, sdkOptions());
    expect(result).toMatchObject({ behavior: 'deny', message: expect.stringContaining('gate rule high.requires_accepted') });
  });

  it('REQUIRE_CONFIRMATION asks confirm with the reason; denied without a confirm handler', async () => {
    const asked: string[] = [];
    const confirming = warrantCanUseTool({
      mapping,
      store,
      now: () => LATER,
      confirm: ({ toolName, reason }) => {
        asked.push(`${toolName}: ${reason}`);
        return true;
      },
    });
    expect(await confirming('mcp__ops__restart', { server: 'a' })).toEqual({ behavior: 'allow', updatedInput: { server: 'a' } });
    expect(asked[0]).toContain('medium.stale_tentative_or_irreversible');
    const refusing = warrantCanUseTool({ mapping, store, now: () => LATER, confirm: async () => false });
    expect(await refusing('mcp__ops__restart', {})).toMatchObject({ behavior: 'deny', message: expect.stringContaining('not confirmed') });
    const nobody = warrantCanUseTool({ mapping, store, now: () => LATER });
    expect(await nobody('mcp__ops__restart', {})).toMatchObject({ behavior: 'deny', message: expect.stringContaining('no confirm handler') });
  });

  it('nothing stored for the proposition: denied, saying how to record evidence', async () => {
    const canUseTool = warrantCanUseTool({ mapping, store, now: () => T0 });
    expect(await canUseTool('mcp__ops__ticket', { id: 7 })).toMatchObject({
      behavior: 'deny',
      message: expect.stringContaining('no evidence is recorded for P-ticket-7 yet, so nothing warrants this call (no_evidence: deny)'),
    });
  });

  it('nothing stored under "no_evidence": "ask": a human decides, told how to record evidence; stored evidence still decides', async () => {
    const asking = parseToolMapping({ ...MAPPING_JSON, no_evidence: 'ask' });
    const asked: string[] = [];
    const canUseTool = warrantCanUseTool({
      mapping: asking,
      store,
      now: () => T0,
      confirm: ({ reason }) => {
        asked.push(reason);
        return false;
      },
    });
    expect(await canUseTool('mcp__ops__ticket', { id: 8 })).toMatchObject({ behavior: 'deny', message: expect.stringContaining('not confirmed') });
    expect(asked).toEqual([expect.stringContaining('no evidence is recorded for P-ticket-8 yet, so a human decides (no_evidence: ask)')]);
    expect(asked[0]).toContain('ewp ingest view.json --db ewp.sqlite');
    // Evidence that does not warrant the action is still a refusal, not a question.
    expect(await canUseTool('mcp__ops__drop_table', { table: 'users' })).toMatchObject({
      behavior: 'deny',
      message: expect.stringContaining('gate rule high.requires_accepted'),
    });
    expect(asked).toHaveLength(1);
    const hook: HookCallback = warrantPreToolUseHook({ mapping: asking, store, now: () => T0 });
    const event = {
      session_id: 's',
      transcript_path: '/t',
      cwd: '/',
      hook_event_name: 'PreToolUse' as const,
      tool_name: 'mcp__ops__ticket',
      tool_input: { id: 9 },
      tool_use_id: 'toolu_hook_ne',
    };
    expect(await hook(event, 'toolu_hook_ne', { signal })).toMatchObject({
      hookSpecificOutput: { permissionDecision: 'ask', permissionDecisionReason: expect.stringContaining('no evidence is recorded for P-ticket-9') },
    });
  });

  it('a closed ledger fails closed', async () => {
    const closed = new SqliteEvidenceStore(ledger.file);
    await closed.close();
    const canUseTool = warrantCanUseTool({ mapping, store: closed, now: () => T0 });
    expect(await canUseTool('mcp__ops__restart', {})).toMatchObject({ behavior: 'deny', message: expect.stringContaining('could not be decided') });
  });
});

describe('warrantPreToolUseHook (Claude Agent SDK hooks)', () => {
  it('answers the PreToolUse event as the hook command does', async () => {
    const hook: HookCallback = warrantPreToolUseHook({ mapping, store, now: () => T0 });
    const event = {
      session_id: 's',
      transcript_path: '/t',
      cwd: '/',
      hook_event_name: 'PreToolUse' as const,
      tool_name: 'Read',
      tool_input: { file_path: '/a' },
      tool_use_id: 'toolu_hook_1',
    };
    expect(await hook(event, 'toolu_hook_1', { signal })).toMatchObject({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow' } });
    expect(await hook({ ...event, tool_name: 'Write', tool_use_id: 'toolu_hook_2' }, 'toolu_hook_2', { signal })).toMatchObject({
      hookSpecificOutput: { permissionDecision: 'ask' },
    });
  });
});

describe("the README's starting mapping", () => {
  it('asks, on a fresh ledger, for every call it maps (Bash included), saying how to record evidence; its observe rule then lets the gate decide', async () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const section = readme.slice(readme.indexOf('## The tool mapping file'));
    const json = /```json\n([\s\S]*?)\n```/.exec(section)?.[1];
    expect(json).toBeDefined();
    const sample = parseToolMapping(JSON.parse(json as string));
    const dir = mkdtempSync(join(tmpdir(), 'ewp-claude-sample-'));
    const fresh = new SqliteEvidenceStore(join(dir, 'ewp.sqlite'));
    try {
      const gate = { mapping: sample, store: fresh, now: () => T0 };
      const hook: HookCallback = warrantPreToolUseHook(gate);
      const post: HookCallback = warrantPostToolUseHook(gate);
      const event = (tool_name: string, tool_input: Record<string, unknown>, id: string) => ({
        session_id: 's',
        transcript_path: '/t',
        cwd: '/',
        hook_event_name: 'PreToolUse' as const,
        tool_name,
        tool_input,
        tool_use_id: id,
      });
      for (const [tool, input, claim] of [
        ['Bash', { command: 'ls' }, 'shell commands may run in this project'],
        ['mcp__ops__restart', { server: 'server01' }, 'server01 is healthy'],
        ['mcp__ops__drop_table', { table: 'users' }, 'table users is unused'],
      ] as const) {
        expect(await hook(event(tool, input, `toolu_sample_${tool}`), `toolu_sample_${tool}`, { signal })).toMatchObject({
          hookSpecificOutput: {
            permissionDecision: 'ask',
            permissionDecisionReason: expect.stringContaining(`no evidence is recorded for "${claim}" (${claimProposition(claim)}) yet`),
          },
        });
      }
      // The health check's report is evidence for the restart's claim.
      const checked = { ...event('mcp__ops__health_check', { server: 'server01' }, 'toolu_sample_check'), hook_event_name: 'PostToolUse' as const };
      expect(await post({ ...checked, tool_response: { status: 'ok' } }, 'toolu_sample_check', { signal })).toEqual({});
      const restart = await hook(event('mcp__ops__restart', { server: 'server01' }, 'toolu_sample_restart'), 'toolu_sample_restart', { signal });
      const healthy = claimProposition('server01 is healthy');
      expect((await fresh.get(healthy))?.evidence.map((e) => [e.polarity, e.source.origin_locator])).toEqual([['supports', 'tool:mcp__ops__health_check']]);
      expect(restart).toMatchObject({
        hookSpecificOutput: { permissionDecisionReason: expect.stringMatching(new RegExp(`^EWP (MAY_ACT|REQUIRE_CONFIRMATION): ${healthy}`)) },
      });
    } finally {
      await fresh.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
