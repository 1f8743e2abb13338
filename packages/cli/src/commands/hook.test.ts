/**
 * `ewp hook pre-tool-use` as Claude Code runs it: the built binary as a process, the PreToolUse event
 * on stdin, the answer JSON on stdout. Everything it cannot use is answered deny (fail closed), with
 * exit 0 and no stack trace.
 */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { loadFixtures } from '@ewp/conformance/pack';
import { SqliteEvidenceStore } from '@ewp/sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hookCommand } from './hook.js';

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

function hook(input: string | Buffer, args: string[] = ['--map', map, '--db', db]) {
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

  it('nothing stored for the proposition: deny, saying how to record evidence', () => {
    expect(hook(event('mcp__ops__ticket', { id: 42 })).hookSpecificOutput?.permissionDecisionReason).toContain(
      'no evidence is recorded for P-ticket-42 yet, so nothing warrants this call (no_evidence: deny)',
    );
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
    // JSON.parse would let the second tool_name win: the denied drop would run as the allowed restart.
    ['a key given twice', `{"tool_name":"mcp__ops__drop_table","tool_input":{"table":"users"},"tool_name":"mcp__ops__restart"}`, 'DUPLICATE_KEY: $.tool_name'],
    [
      'a key given twice, nested',
      event('mcp__ops__restart', { server: 'a' }).replace('{"server":"a"}', '{"server":"a","server":"b"}'),
      'DUPLICATE_KEY: $.tool_input.server',
    ],
    ['a lone surrogate escape', event('mcp__ops__restart\ud800'), 'LONE_SURROGATE'],
    [
      'bytes that are not UTF-8',
      Buffer.concat([Buffer.from('{"tool_name":"mcp__ops__restart'), Buffer.from([0xff]), Buffer.from('"}')]),
      'not UTF-8: byte 0xff at byte offset 31',
    ],
  ])('input it cannot read (%s): deny with the reason', (_, input, reason) => {
    const answer = hook(input);
    expect(decisionOf(answer)).toBe('deny');
    expect(answer.hookSpecificOutput?.permissionDecisionReason).toContain(reason);
  });

  it('more than 16 MiB on stdin: deny with the reason, exit 0, without reading it all', async () => {
    const child = spawn(process.execPath, [bin, 'hook', 'pre-tool-use', '--map', map, '--db', db], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    // The hook stops reading at the limit, so writing fails with EPIPE: that is the point.
    child.stdin.on('error', () => undefined);
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    let written = 0;
    child.stdin.write('{"tool_name":"mcp__ops__restart","pad":"');
    // 64 MiB offered, one reused 1 MiB buffer: the test allocates nothing like it.
    for (let i = 0; i < 64 && child.exitCode === null && child.stdin.writable; i++) {
      if (!child.stdin.write(chunk)) await Promise.race([once(child.stdin, 'drain'), once(child, 'exit')]).catch(() => undefined);
      written += chunk.length;
    }
    child.stdin.end();
    const [code] = await once(child, 'close');
    expect(code).toBe(0);
    expect(stderr).not.toMatch(/\n\s+at /);
    expect(written).toBeGreaterThan(16 * 1024 * 1024);
    expect(written).toBeLessThan(64 * 1024 * 1024); // it stopped reading, so the writes stopped early
    const answer = JSON.parse(stdout.trim()) as { hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string } };
    expect(answer.hookSpecificOutput.permissionDecision).toBe('deny');
    expect(answer.hookSpecificOutput.permissionDecisionReason).toContain('larger than 16 MiB');
  });

  it('a stdin that fails while it is read: deny with the reason, exit 0 (in process)', async () => {
    const stdin = new Readable({
      read() {
        this.destroy(new Error('EIO: i/o error, read'));
      },
    });
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    let text = '';
    stdout.on('data', (d) => {
      text += d;
    });
    stderr.resume();
    const code = await hookCommand(['pre-tool-use', '--map', map, '--db', db], { stdin, stdout, stderr, env: {}, cwd: dir });
    expect(code).toBe(0);
    expect(JSON.parse(text).hookSpecificOutput).toMatchObject({ permissionDecision: 'deny', permissionDecisionReason: expect.stringContaining('EIO') });
  });

  it('a mapping file with a key given twice: deny naming it', () => {
    const twice = join(dir, 'twice.json');
    writeFileSync(twice, '{"unmapped":"deny","unmapped":"pass","tools":[]}');
    expect(hook(event('Write'), ['--map', twice, '--db', db]).hookSpecificOutput?.permissionDecisionReason).toContain('DUPLICATE_KEY');
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
