// Offline Claude Code walkthrough: the PreToolUse hook as Claude Code runs it (a process per tool
// call, the event JSON on stdin, the answer on stdout), and the Agent SDK's canUseTool from the same
// tool mapping file. Run: pnpm --filter @ewp/example-claude-code start
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseToolMapping, warrantCanUseTool } from '@ewp/claude-code';
import { SqliteEvidenceStore } from '@ewp/sqlite';

const dir = mkdtempSync(join(tmpdir(), 'ewp-claude-example-'));
try {
  // The ledger: P-win verified (server01 runs Windows Server 2022), P-x disputed.
  const db = join(dir, 'ewp.sqlite');
  const ledger = new SqliteEvidenceStore(db);
  for (const name of ['08-verified-now', '02-fork-x']) {
    await ledger.put(JSON.parse(readFileSync(new URL(`../../conformance/pack/fixtures/${name}.json`, import.meta.url), 'utf8')));
  }
  await ledger.close();

  // The tool mapping (what .claude/ewp-tools.json would hold).
  const mappingJson = {
    unmapped: 'ask',
    tools: [
      { match: 'mcp__ops__status', proposition: 'P-win', action: { kind: 'read', risk: 'low' } },
      { match: 'mcp__ops__drop_*', proposition: 'P-x', action: { action_id: 'drop:{tool_input.table}', kind: 'drop', risk: 'high', reversible: false } },
    ],
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
  // Each call has its own tool_use_id: the decisions are recorded under the gate claude-code with it, and
  // an allowed call is claimed once (Claude Code's PostToolUse report records its outcome).
  let uses = 0;
  const event = (tool_name, tool_input) =>
    JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 's', cwd: dir, tool_name, tool_input, tool_use_id: `toolu_hook_${++uses}` });
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
  console.log('canUseTool status       ->', sdk(await canUseTool('mcp__ops__status', { server: 'server01' })));
  console.log('canUseTool drop         ->', sdk(await canUseTool('mcp__ops__drop_table', { table: 'users' })));
  console.log('canUseTool Write        ->', sdk(await canUseTool('Write', { file_path: '/etc/hosts' })));
  await store.close();
  const [status, drop, write, malformed, sdkStatus, sdkDrop, sdkWrite] = decided;
  console.log(
    `decided: hook status ${status}, drop table ${drop}, unmapped Write ${write}, malformed input ${malformed}; canUseTool (the human declines) status ${sdkStatus}, drop ${sdkDrop}, Write ${sdkWrite}`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
