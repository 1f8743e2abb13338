/**
 * Claims and observations through the hook entry Claude Code runs (`ewp hook pre-tool-use` /
 * `post-tool-use`, the event JSON on stdin, the answer on stdout), in-process against the sources,
 * and `ewp observe` by hand: a gate on a claim with nothing recorded answers how to record some; a
 * checking tool's PostToolUse report (or the operator's `ewp observe`) lands as an observation on
 * that claim, and the gate then allows.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEvidenceStore } from '@ewp/sqlite';
import { claimProposition } from '@ewp/tools';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCaptured } from '../testing/captured-io.js';
import { hookCommand } from './hook.js';
import { observeCommand } from './observe.js';

let dir: string;
let db: string;
let map: string;

/** The README's sample, in short: restarts depend on the server being healthy; the health check is evidence. */
const MAPPING = {
  unmapped: 'ask',
  no_evidence: 'ask',
  tools: [
    {
      match: 'mcp__ops__restart',
      claim: '{tool_input.server} is healthy',
      action: { action_id: 'restart:{tool_input.server}', kind: 'restart', risk: 'low', reversible: true },
    },
  ],
  observe: [{ match: 'mcp__ops__health_check', claim: '{tool_input.server} is healthy', supports_when: '"status":\\s*"ok"' }],
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ewp-hook-observe-'));
  db = join(dir, 'ewp.sqlite');
  // An empty ledger: the hook refuses a missing one, never creates it.
  await new SqliteEvidenceStore(db).close();
  map = join(dir, 'ewp-tools.json');
  writeFileSync(map, JSON.stringify(MAPPING));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let uses = 0;
async function hook(name: 'pre-tool-use' | 'post-tool-use' | 'post-tool-use-failure', event: Record<string, unknown>) {
  const r = await runCaptured((io) => hookCommand([name, '--map', map, '--db', db], io), { stdin: JSON.stringify(event), cwd: dir });
  expect(r.code).toBe(0);
  return {
    answer: JSON.parse(r.stdout) as { hookSpecificOutput?: { permissionDecision: string; permissionDecisionReason: string }; systemMessage?: string },
    stderr: r.stderr,
  };
}
const call = (tool_name: string, tool_input: Record<string, unknown>) => ({ session_id: 's', cwd: dir, tool_name, tool_input, tool_use_id: `toolu_${++uses}` });
const pre = async (server: string) =>
  (await hook('pre-tool-use', { hook_event_name: 'PreToolUse', ...call('mcp__ops__restart', { server }) })).answer.hookSpecificOutput;
const healthCheck = (server: string, tool_response: unknown) =>
  hook('post-tool-use', { hook_event_name: 'PostToolUse', ...call('mcp__ops__health_check', { server }), tool_response });

describe('claims and observations through the Claude Code hooks', () => {
  it('gate alone: no evidence for the claim, a human is asked and told how to record some', async () => {
    const answer = await pre('server01');
    expect(answer?.permissionDecision).toBe('ask');
    const reason = answer?.permissionDecisionReason ?? '';
    expect(reason).toContain(
      `no evidence is recorded for "server01 is healthy" (${claimProposition('server01 is healthy')}) yet, so a human decides (no_evidence: ask)`,
    );
    expect(reason).toContain('an "observe" rule in the tool mapping');
    expect(reason).toContain('ewp observe --claim "server01 is healthy" --tool <the checking tool> --supports --db ewp.sqlite');
  });

  it('observe, then gate: the health check reported by PostToolUse supports the claim, and the restart is allowed', async () => {
    const observed = await healthCheck('server02', { status: 'ok', uptime: 86400 });
    expect(observed.answer).toEqual({});
    expect(observed.stderr).toContain('observed: tool:mcp__ops__health_check supports "server02 is healthy"');
    expect(await pre('server02')).toMatchObject({
      permissionDecision: 'allow',
      permissionDecisionReason: expect.stringMatching(new RegExp(`^EWP MAY_ACT: ${claimProposition('server02 is healthy')}`)),
    });
    // The same report again is not new evidence.
    expect((await healthCheck('server02', { status: 'ok', uptime: 86400 })).stderr).toContain('already observed');
    // Another server's evidence says nothing about this one.
    expect((await pre('server01'))?.permissionDecision).toBe('ask');
  });

  it('a check whose response does not read as supporting refutes the claim: the gate no longer allows', async () => {
    await healthCheck('server03', { status: 'ok' });
    expect((await pre('server03'))?.permissionDecision).toBe('allow');
    const down = await healthCheck('server03', { status: 'down' });
    expect(down.stderr).toContain('observed: tool:mcp__ops__health_check refutes "server03 is healthy"');
    expect((await pre('server03'))?.permissionDecision).not.toBe('allow');
  });

  it('a failed check (PostToolUseFailure) refutes; the outcome of an allowed restart is recorded as before', async () => {
    await healthCheck('server04', { status: 'ok' });
    const restart = call('mcp__ops__restart', { server: 'server04' });
    expect((await hook('pre-tool-use', { hook_event_name: 'PreToolUse', ...restart })).answer.hookSpecificOutput?.permissionDecision).toBe('allow');
    const reported = await hook('post-tool-use', { hook_event_name: 'PostToolUse', ...restart, tool_response: 'restarted' });
    expect(reported.answer).toEqual({});
    expect(reported.stderr).toContain('outcome recorded under decision dec_');
    const failed = await hook('post-tool-use-failure', {
      hook_event_name: 'PostToolUseFailure',
      ...call('mcp__ops__health_check', { server: 'server04' }),
      error: 'connection refused',
    });
    expect(failed.answer).toEqual({});
    expect(failed.stderr).toContain('refutes "server04 is healthy"');
  });
});

describe('ewp observe', () => {
  const observe = (args: string[], stdin?: string) =>
    runCaptured((io) => observeCommand([...args, '--db', db], io), { cwd: dir, ...(stdin === undefined ? {} : { stdin }) });

  it('records the operator’s check on the claim the gate reads: then the hook allows', async () => {
    expect((await pre('server05'))?.permissionDecision).toBe('ask');
    const r = await observe(['--claim', 'server05 is healthy', '--tool', 'health_check', '--supports', '--result', '{"status":"ok"}']);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout).toBe(
      `recorded: tool:health_check supports "server05 is healthy"\n  claim ${claimProposition('server05 is healthy')}, snapshot ${/snapshot (\S+)/.exec(r.stdout)?.[1]}\n  observation ${/observation (\S+)/.exec(r.stdout)?.[1]}\n`,
    );
    expect((await pre('server05'))?.permissionDecision).toBe('allow');
    const again = await observe(['--claim', 'server05 is healthy', '--tool', 'health_check', '--supports', '--result', '{"status":"ok"}', '--json']);
    expect(JSON.parse(again.stdout)).toMatchObject({ claim: 'server05 is healthy', source: 'tool:health_check', polarity: 'supports', stored: false });
  });

  it('reads the result from stdin with --result -, as text when it is not JSON; --refutes records against the claim', async () => {
    const r = await observe(['--claim', 'server06 is healthy', '--tool', 'ping', '--refutes', '--result', '-', '--json'], '100% packet loss\n');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ polarity: 'opposes', source: 'tool:ping', stored: true });
    // A refutation alone never warrants acting.
    expect(await pre('server06')).toMatchObject({ permissionDecision: 'deny', permissionDecisionReason: expect.stringMatching(/^EWP DENY: claim:/) });
  });

  it.each([
    [['--tool', 't', '--supports'], '--claim is required'],
    [['--claim', 'c', '--supports'], '--tool is required'],
    [['--claim', 'c', '--tool', 't'], 'exactly one of --supports'],
    [['--claim', 'c', '--tool', 't', '--supports', '--refutes'], 'exactly one of --supports'],
    [['--claim', ' ', '--tool', 't', '--supports'], '--claim: must be the claim in words'],
    [['--claim', 'c', '--tool', 'bad name', '--supports'], '--tool: must be a tool name'],
  ])('refuses %j: exit 2, naming the argument', async (args, message) => {
    const r = await observe(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(r.stdout).toBe('');
  });
});
