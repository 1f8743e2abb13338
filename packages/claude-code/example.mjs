import { answerPreToolUse, parseToolMapping, warrantCanUseTool } from '@ewp/claude-code';
import { MemoryEvidenceStore } from '@ewp/ledger';

const source = { source_id: 'ci', lineage_id: 'L-ci', origin_type: 'tool', origin_locator: 'ci://main', snapshot_id: 's1', content_hash: 'sha256:1', observed_at: '2026-09-23T08:00:00Z', extractor_id: null, parent_source_id: null };
const store = new MemoryEvidenceStore(); // any EvidenceStore: @ewp/sqlite, @ewp/postgres, ...
await store.put({
  proposition_id: 'P-main-green',
  freshness_policy_seconds: 86400,
  assertions: [{ assertion_id: 'a1', text: 'main is green', asserted_by: 'agent', assertion_confidence: 0.9, source, asserted_at: source.observed_at }],
  checks: [{ check_id: 'k1', method: 'tool_observation', scope: 'main', source, observed_at: source.observed_at, result: 'supports' }],
});
const mapping = parseToolMapping({
  unmapped: 'ask',
  // A proposition id for evidence recorded by id (a view); a claim in words for evidence a tool observed.
  tools: [{ match: 'mcp__ci__deploy', proposition: 'P-main-green', action: { kind: 'deploy', risk: 'high', reversible: true } }],
});
const gate = { mapping, store, now: () => new Date('2026-09-23T12:00:00Z') };

// The Claude Code hook protocol: the event JSON in, the answer JSON out.
const answer = await answerPreToolUse(JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'mcp__ci__deploy', tool_input: {} }), gate);
console.log(answer.hookSpecificOutput.permissionDecision); // allow: main was checked green 4 hours ago
// The Agent SDK's canUseTool: an unmapped tool asks `confirm`, denied without one.
console.log((await warrantCanUseTool(gate)('Bash', { command: 'rm -rf /' })).behavior); // deny
