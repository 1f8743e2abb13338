/**
 * `ewp hook pre-tool-use` as Claude Code runs it: the built binary as a process, the PreToolUse event
 * on stdin, the answer JSON on stdout. Everything it cannot use is answered deny (fail closed), with
 * exit 0 and no stack trace.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadFixtures } from '@ewp/conformance/pack';
import { SqliteEvidenceStore } from '@ewp/sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const bin = new URL('../../dist/bin.js', import.meta.url).pathname;
let dir: string;
let db: string;
let map: string;

const MAPPING = {
  unmapped: 'ask',
  tools: [
    { match: 'mcp__ops__restart', proposition: 'P-win', action: { kind: 'restart', risk: 'low', reversible: true } },
    { match: 'mcp__ops__drop_*', proposition: 'P-x', action: { action_id: 'drop:{tool_input.table}', kind: 'drop', risk: 'high', reversible: false } },
    { match: 'mcp__ops__ticket', proposition: 'P-ticket-{tool_input.id}', action: { kind: 'ticket' } },
  ],
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ewp-hook-'));
  db = join(dir, 'ewp.sqlite');
  const store = new SqliteEvidenceStore(db);
  const fixtures = loadFixtures();
  for (const name of ['08-verified-now', '02-fork-x']) await store.put(structuredClone(fixtures.find((f) => f.name === name)!.view));
  await store.close();
  map = join(dir, 'tools.json');
  writeFileSync(map, JSON.stringify(MAPPING));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function event(toolName: unknown, toolInput: unknown = {}) {
  return JSON.stringify({
    session_id: 's1',
    transcript_path: '/tmp/t.jsonl',
    cwd: '/work',
    permission_mode: 'default',
    hook_event_name: 'PreToolUse',
    tool_name: toolName,
    tool_input: toolInput,
    tool_use_id: 'toolu_01',
  });
}

function hook(input: string, args: string[] = ['--map', map, '--db', db]) {
  const r = spawnSync(process.execPath, [bin, 'hook', 'pre-tool-use', ...args], { encoding: 'utf8', input });
  expect(r.status).toBe(0);
  expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
  const lines = r.stdout.trim().split('\n');
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0]!) as { hookSpecificOutput?: { hookEventName: string; permissionDecision: string; permissionDecisionReason: string } };
}

const decisionOf = (answer: ReturnType<typeof hook>) => answer.hookSpecificOutput?.permissionDecision;

describe('ewp hook pre-tool-use (a process, stdin to stdout)', () => {
  it('MAY_ACT: allow, with the deciding rule (the evidence of now: P-win verified, its check since gone stale)', () => {
    const answer = hook(event('mcp__ops__restart', { server: 'a' }));
    expect(answer.hookSpecificOutput?.hookEventName).toBe('PreToolUse');
    // Evaluated at the real clock: the 7-day check of P-win is stale, acceptance TENTATIVE; low risk may act.
    expect(decisionOf(answer)).toBe('allow');
    expect(answer.hookSpecificOutput?.permissionDecisionReason).toMatch(/^EWP MAY_ACT: P-win: gate rule /);
  });

  it('DENY: deny with the rule, for a high-risk irreversible call on a disputed proposition', () => {
    const answer = hook(event('mcp__ops__drop_table', { table: 'users' }));
    expect(decisionOf(answer)).toBe('deny');
    expect(answer.hookSpecificOutput?.permissionDecisionReason).toContain('P-x');
  });

  it('nothing stored for the proposition: deny', () => {
    expect(hook(event('mcp__ops__ticket', { id: 42 })).hookSpecificOutput?.permissionDecisionReason).toContain('no stored evidence for P-ticket-42');
  });

  it('an unmapped tool gets the documented default of the mapping (ask), or no decision under "pass"', () => {
    expect(decisionOf(hook(event('Write', { file_path: '/a' })))).toBe('ask');
    const pass = join(dir, 'pass.json');
    writeFileSync(pass, JSON.stringify({ ...MAPPING, unmapped: 'pass' }));
    expect(hook(event('Write'), ['--map', pass, '--db', db])).toEqual({});
  });

  it.each([
    ['not JSON', '{"tool_name": ', 'not JSON'],
    ['not an object', '[1,2]', 'not a JSON object'],
    ['no tool_name', JSON.stringify({ hook_event_name: 'PreToolUse', tool_input: {} }), 'no tool_name'],
    ['another event', JSON.stringify({ hook_event_name: 'PostToolUse', tool_name: 'Bash' }), 'not PreToolUse'],
    ['empty stdin', '', 'not JSON'],
    ['a placeholder it cannot fill', event('mcp__ops__drop_table', {}), 'tool_input.table'],
  ])('malformed input (%s): deny with the reason', (_, input, reason) => {
    const answer = hook(input);
    expect(decisionOf(answer)).toBe('deny');
    expect(answer.hookSpecificOutput?.permissionDecisionReason).toContain(reason);
  });

  it.each([
    ['a missing ledger (never created)', () => ['--map', map, '--db', join(dir, 'none.sqlite')], 'no ledger at'],
    ['no ledger named', () => ['--map', map], 'name a ledger'],
    ['no mapping file', () => ['--db', db], '--map'],
    ['a missing mapping file', () => ['--map', join(dir, 'none.json'), '--db', db], 'unusable tool mapping'],
    ['an unknown option', () => ['--map', map, '--db', db, '--frobnicate'], 'unusable arguments'],
  ])('%s: deny with the reason', (_, args, reason) => {
    const answer = hook(event('mcp__ops__restart'), args());
    expect(decisionOf(answer)).toBe('deny');
    expect(answer.hookSpecificOutput?.permissionDecisionReason).toContain(reason);
    expect(existsSync(join(dir, 'none.sqlite'))).toBe(false); // a missing ledger is never created
  });

  it('a bad mapping file: deny naming the field', () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ tools: [{ match: 'X', proposition: 'P', action: { kind: 'k', risk: 'severe' } }] }));
    expect(hook(event('X'), ['--map', bad, '--db', db]).hookSpecificOutput?.permissionDecisionReason).toContain('$.tools[0].action.risk');
  });
});
