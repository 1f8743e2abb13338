/**
 * The committed scenarios through two framework bindings: the MCP server (`ewp_may_act`, called by
 * the official MCP SDK client over an in-memory transport) and the Claude Code PreToolUse hook
 * (the event JSON answered by @ewp/claude-code). Each decides on the same replayed evidence at the
 * scenario's decision time; its decision must equal the library's gate arm (d).
 */
import { readFileSync } from 'node:fs';
import { answerPreToolUse, parseToolMapping } from '@ewp/claude-code';
import { createEwpMcpServer } from '@ewp/mcp';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { describe, expect, it } from 'vitest';
import { COMMITTED_SCENARIOS, type Decision, decideWithLayer, decisionStore, decodeScenarios, type Scenario } from '../src/index.js';

const scenarios = decodeScenarios(readFileSync(COMMITTED_SCENARIOS, 'utf8'));

const FROM_MCP: Record<string, Decision> = { MAY_ACT: 'act', REQUIRE_CONFIRMATION: 'confirm', DENY: 'hold' };
const FROM_CLAUDE: Record<string, Decision> = { allow: 'act', ask: 'confirm', deny: 'hold' };

/** The MCP binding's decision: a client calls `ewp_may_act` on a server over the replayed ledger, its clock at the decision time. */
async function viaMcp(s: Scenario): Promise<Decision | 'no_claim'> {
  const d = await decisionStore(s);
  if (d.propositionId === undefined) return 'no_claim';
  const server = createEwpMcpServer({ store: d.store, roles: { ingest: false }, clock: () => new Date(d.at) });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'harm-bench', version: '1.0.0' });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  try {
    const result = await client.callTool({
      name: 'ewp_may_act',
      arguments: { proposition_id: d.propositionId, action: { action_id: `${s.id}:mcp`, kind: s.act.tool, risk: s.act.risk, reversible: s.act.reversible } },
    });
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    const decision = (result.structuredContent as { decision: string }).decision;
    return FROM_MCP[decision]!;
  } finally {
    await client.close();
  }
}

/** The Claude Code hook's decision: a PreToolUse event for the scenario's tool, mapped to the claim's proposition. */
async function viaClaudeHook(s: Scenario): Promise<Decision | 'no_claim'> {
  const d = await decisionStore(s);
  if (d.propositionId === undefined) return 'no_claim';
  const mapping = parseToolMapping({
    tools: [{ match: s.act.tool, proposition: d.propositionId, action: { kind: s.act.tool, risk: s.act.risk, reversible: s.act.reversible } }],
  });
  const event = JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: s.act.tool, tool_input: { subject: s.act.subject ?? null } });
  const answer = await answerPreToolUse(event, { mapping, store: d.store, now: () => new Date(d.at) });
  const permission = (answer as { hookSpecificOutput: { permissionDecision: string } }).hookSpecificOutput.permissionDecision;
  return FROM_CLAUDE[permission]!;
}

describe('the committed set through the framework bindings', () => {
  it('MCP (ewp_may_act over the MCP SDK client) and the Claude Code hook decide as the library gate', async () => {
    const seen = new Set<Decision>();
    for (const s of scenarios) {
      const library = (await decideWithLayer(s)).gate;
      const expected = (await decisionStore(s)).propositionId === undefined ? 'no_claim' : library;
      expect(await viaMcp(s), `${s.id} via MCP`).toBe(expected);
      expect(await viaClaudeHook(s), `${s.id} via the Claude Code hook`).toBe(expected);
      seen.add(library);
    }
    // Every decision occurs, so agreement is not one constant answer matched by another.
    expect([...seen].sort()).toEqual(['act', 'confirm', 'hold']);
  }, 300_000);
});
