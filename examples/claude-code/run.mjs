// Offline Claude Code walkthrough: the PreToolUse hook as Claude Code runs it (a process per tool
// call, the event JSON on stdin, the answer on stdout), the PostToolUse hook recording a health
// check's result as evidence for the claim a restart depends on, and the Agent SDK's canUseTool from
// the same tool mapping file. Run: pnpm --filter @ewp/example-claude-code start
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseToolMapping, warrantCanUseTool } from '@ewp/claude-code';
import { SqliteEvidenceStore } from '@ewp/sqlite';

// The evidence: P-win tool-verified (server01 runs Windows Server 2022), P-x disputed (an open conflict).
const winrm = {
  source_id: 'winrm',
  lineage_id: 'L-obs',
  origin_type: 'tool',
  origin_locator: 'winrm://server01',
  snapshot_id: 'snap:winrm',
  content_hash: 'sha256:winrm',
  observed_at: '2026-09-21T18:31:00Z',
  extractor_id: null,
  parent_source_id: null,
};
const verified = {
  proposition_id: 'P-win',
  freshness_policy_seconds: 604800,
  assertions: [
    {
      assertion_id: 'a1',
      text: 'server01 runs Windows Server 2022',
      asserted_by: 'agent',
      assertion_confidence: 0.9,
      source: winrm,
      asserted_at: winrm.observed_at,
    },
  ],
  checks: [{ check_id: 'k1', method: 'tool_observation', scope: 'server01', source: winrm, observed_at: winrm.observed_at, result: 'supports' }],
};
const doc = {
  source_id: 'sx',
  lineage_id: 'L-b',
  origin_type: 'document',
  origin_locator: 'wiki://x',
  snapshot_id: 'snap:sx',
  content_hash: 'sha256:sx',
  observed_at: '2026-09-01T00:00:00Z',
  extractor_id: null,
  parent_source_id: null,
};
const disputed = {
  proposition_id: 'P-x',
  freshness_policy_seconds: 2592000,
  assertions: [{ assertion_id: 'ax', text: 'X', asserted_by: 'agent', assertion_confidence: 0.9, source: doc, asserted_at: doc.observed_at }],
  evidence: [{ evidence_id: 'ex', polarity: 'supports', content: 'X', source: doc, observed_at: doc.observed_at }],
  conflicts: [{ conflict_id: 'c1', note: '', proposition_ids: ['P-x', 'P-not-x'], status: 'open' }],
};

const dir = mkdtempSync(join(tmpdir(), 'ewp-claude-example-'));
try {
  // The ledger: P-win verified (server01 runs Windows Server 2022), P-x disputed.
  const db = join(dir, 'ewp.sqlite');
  const ledger = new SqliteEvidenceStore(db);
  await ledger.put(verified);
  await ledger.put(disputed);
  await ledger.close();

  // The tool mapping (what .claude/ewp-tools.json would hold): a restart depends on a claim in words,
  // which the health check's results are evidence for; the other rules name evidence stored by id.
  const mappingJson = {
    unmapped: 'ask',
    no_evidence: 'ask',
    tools: [
      {
        match: 'mcp__ops__restart',
        claim: '{tool_input.server} is healthy',
        action: { action_id: 'restart:{tool_input.server}', kind: 'restart', risk: 'low' },
      },
      { match: 'mcp__ops__status', proposition: 'P-win', action: { kind: 'read', risk: 'low' } },
      { match: 'mcp__ops__drop_*', proposition: 'P-x', action: { action_id: 'drop:{tool_input.table}', kind: 'drop', risk: 'high', reversible: false } },
    ],
    observe: [{ match: 'mcp__ops__health_check', claim: '{tool_input.server} is healthy', supports_when: '"status":\\s*"ok"' }],
  };
  const map = join(dir, 'ewp-tools.json');
  writeFileSync(map, JSON.stringify(mappingJson));

  // The hook, as .claude/settings.json would run it: `ewp hook pre-tool-use --map ... --db ...`.
  const decided = [];
  const bin = join(createRequire(import.meta.url).resolve('@ewp/cli/package.json'), '..', 'dist', 'bin.js');
  const hook = (stdin) => {
    const r = spawnSync(process.execPath, [bin, 'hook', 'pre-tool-use', '--map', map, '--db', db], { input: stdin, encoding: 'utf8' });
    const answer = JSON.parse(r.stdout).hookSpecificOutput;
    decided.push(answer.permissionDecision);
    return `${answer.permissionDecision} (${answer.permissionDecisionReason.slice(0, 110)}...)`;
  };
  // Claude Code's report after a tool ran, as the PostToolUse hook gets it: what it recorded is on stderr.
  const report = (stdin) => {
    const r = spawnSync(process.execPath, [bin, 'hook', 'post-tool-use', '--map', map, '--db', db], { input: stdin, encoding: 'utf8' });
    return r.stderr.trim().replace(/^ewp hook: /, '');
  };
  // Each call has its own tool_use_id: the decisions are recorded under the gate claude-code with it, and
  // an allowed call is claimed once (Claude Code's PostToolUse report records its outcome).
  let uses = 0;
  const event = (tool_name, tool_input) =>
    JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 's', cwd: dir, tool_name, tool_input, tool_use_id: `toolu_hook_${++uses}` });
  console.log('restart server01        ->', hook(event('mcp__ops__restart', { server: 'server01' })));
  const check = JSON.parse(event('mcp__ops__health_check', { server: 'server01' }));
  console.log('health check reported   ->', report(JSON.stringify({ ...check, hook_event_name: 'PostToolUse', tool_response: { status: 'ok' } })));
  console.log('restart server01 again  ->', hook(event('mcp__ops__restart', { server: 'server01' })));
  console.log('status of server01      ->', hook(event('mcp__ops__status', { server: 'server01' })));
  console.log('drop table users        ->', hook(event('mcp__ops__drop_table', { table: 'users' })));
  console.log('an unmapped Write       ->', hook(event('Write', { file_path: '/etc/hosts' })));
  console.log('malformed hook input    ->', hook('{"tool_name": '));

  // The Agent SDK: the same decision as canUseTool, with a confirm handler for `ask`.
  const store = new SqliteEvidenceStore(db);
  const sdk = (answer) => {
    decided.push(answer.behavior);
    return answer.behavior;
  };
  const canUseTool = warrantCanUseTool({
    mapping: parseToolMapping(mappingJson),
    store,
    confirm: ({ reason }) => {
      console.log('  asked a human, who declines:', reason.slice(0, 90));
      return false;
    },
  });
  console.log('canUseTool status       ->', sdk(await canUseTool('mcp__ops__status', { server: 'server01' }, { toolUseID: 'toolu_sdk_1' })));
  console.log('canUseTool drop         ->', sdk(await canUseTool('mcp__ops__drop_table', { table: 'users' }, { toolUseID: 'toolu_sdk_2' })));
  console.log('canUseTool Write        ->', sdk(await canUseTool('Write', { file_path: '/etc/hosts' }, { toolUseID: 'toolu_sdk_3' })));
  await store.close();
  const [unchecked, checked, status, drop, write, malformed, sdkStatus, sdkDrop, sdkWrite] = decided;
  console.log(
    `decided: hook restart ${unchecked} before the health check and ${checked} after it, status ${status}, drop table ${drop}, unmapped Write ${write}, malformed input ${malformed}; canUseTool (the human declines) status ${sdkStatus}, drop ${sdkDrop}, Write ${sdkWrite}`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
