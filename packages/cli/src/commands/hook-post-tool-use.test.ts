/**
 * `ewp hook post-tool-use` / `post-tool-use-failure` as Claude Code runs them: the built binary as a
 * process, after `ewp hook pre-tool-use` allowed (and claimed) the call, the report event on stdin.
 * The outcome lands in the ledger once; whatever cannot be recorded is said (systemMessage), exit 0.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadFixtures } from '@ewp/conformance/pack';
import { SqliteEvidenceStore } from '@ewp/sqlite';
import { decisionHistory, listDecisions } from '@ewp/tools';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const bin = new URL('../../dist/bin.js', import.meta.url).pathname;
let dir: string;
let db: string;
let map: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ewp-hook-post-'));
  db = join(dir, 'ewp.sqlite');
  const store = new SqliteEvidenceStore(db);
  await store.put(structuredClone(loadFixtures().find((f) => f.name === '08-verified-now')!.view));
  await store.close();
  map = join(dir, 'tools.json');
  writeFileSync(
    map,
    JSON.stringify({
      unmapped: 'pass',
      tools: [{ match: 'mcp__ops__restart', proposition: 'P-win', action: { kind: 'restart', risk: 'low', reversible: true } }],
    }),
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(hook: string, input: string | Buffer) {
  const r = spawnSync(process.execPath, [bin, 'hook', hook, '--map', map, '--db', db], { encoding: 'utf8', input });
  expect(r.status).toBe(0);
  expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
  const lines = r.stdout.trim().split('\n');
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0]!) as { systemMessage?: string; hookSpecificOutput?: { permissionDecision: string } };
}

const call = (id: string, tool = 'mcp__ops__restart') => ({ session_id: 's1', cwd: '/work', tool_name: tool, tool_input: { server: 'a' }, tool_use_id: id });
const pre = (id: string) => run('pre-tool-use', JSON.stringify({ hook_event_name: 'PreToolUse', ...call(id) }));

async function historyOf(id: string) {
  const store = new SqliteEvidenceStore(db);
  try {
    const decided = (await listDecisions(store, { limit: 1000 })).filter((d) => d.record.gate === 'claude-code' && d.record.call_id === id);
    expect(decided).toHaveLength(1);
    return await decisionHistory(store, decided[0]!.decision_id);
  } finally {
    await store.close();
  }
}

describe('ewp hook post-tool-use / post-tool-use-failure (a process, stdin to stdout)', () => {
  it('PostToolUse after an allowed call: {} and the outcome succeeded, once; a second report is said, not recorded', async () => {
    expect(pre('toolu_ok').hookSpecificOutput?.permissionDecision).toBe('allow');
    expect(run('post-tool-use', JSON.stringify({ hook_event_name: 'PostToolUse', ...call('toolu_ok'), tool_response: 'restarted' }))).toEqual({});
    const h = await historyOf('toolu_ok');
    expect(h.execution).not.toBeNull();
    expect(h.outcome?.body).toMatchObject({ status: 'succeeded', error: null });
    const again = run('post-tool-use', JSON.stringify({ hook_event_name: 'PostToolUse', ...call('toolu_ok') }));
    expect(again.systemMessage).toMatch(/^EWP: .*already.*; the outcome of the call is not recorded$/);
    expect((await historyOf('toolu_ok')).outcome?.body.status).toBe('succeeded');
  });

  it("PostToolUseFailure: the outcome failed with Claude Code's error text", async () => {
    expect(pre('toolu_fail').hookSpecificOutput?.permissionDecision).toBe('allow');
    const event = { hook_event_name: 'PostToolUseFailure', ...call('toolu_fail'), error: 'Command failed: host unreachable' };
    expect(run('post-tool-use-failure', JSON.stringify(event))).toEqual({});
    expect((await historyOf('toolu_fail')).outcome?.body).toMatchObject({ status: 'failed', error: 'Command failed: host unreachable' });
  });

  it('a report of a call nothing claimed, or of another event, is said and records nothing; an ungated tool is {}', async () => {
    expect(run('post-tool-use', JSON.stringify({ hook_event_name: 'PostToolUse', ...call('toolu_never') })).systemMessage).toContain(
      'no decision is recorded for tool use toolu_never',
    );
    expect(pre('toolu_swap').hookSpecificOutput?.permissionDecision).toBe('allow');
    const swapped = run('post-tool-use', JSON.stringify({ hook_event_name: 'PostToolUseFailure', ...call('toolu_swap'), error: 'x' }));
    expect(swapped.systemMessage).toContain('hook post-tool-use was given a "PostToolUseFailure" event, not PostToolUse');
    expect((await historyOf('toolu_swap')).outcome).toBeNull();
    expect(run('post-tool-use', JSON.stringify({ hook_event_name: 'PostToolUse', ...call('toolu_other', 'Read') }))).toEqual({});
    expect(run('post-tool-use', JSON.stringify({ hook_event_name: 'PostToolUse', ...call('') })).systemMessage).toContain('$.tool_use_id');
  });

  it('input it cannot read (not JSON, not UTF-8, a key given twice) is said with the reason, exit 0', () => {
    expect(run('post-tool-use', 'not json').systemMessage).toContain('the hook input is not JSON');
    expect(run('post-tool-use', Buffer.from([0x7b, 0xff, 0xfe, 0x7d])).systemMessage).toMatch(/the hook input is refused: \w+/);
    const twice = '{"hook_event_name":"PostToolUse","tool_name":"mcp__ops__restart","tool_name":"Read","tool_use_id":"t"}';
    expect(run('post-tool-use', twice).systemMessage).toMatch(/the hook input is refused: \w+/);
    expect(run('post-tool-use-failur', '{}').hookSpecificOutput?.permissionDecision).toBe('deny');
  });
});
