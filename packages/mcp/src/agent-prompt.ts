/**
 * The one prompt the server offers: the rules an agent should follow when it speaks from memory
 * through EWP (docs/mcp.md "Prompt guidance for agents").
 */
import { ErrorCode, type GetPromptResult, McpError, type Prompt } from '@modelcontextprotocol/sdk/types.js';

export const AGENT_PROMPT_NAME = 'ewp_memory_rules';

export const AGENT_PROMPT: Prompt = {
  name: AGENT_PROMPT_NAME,
  title: 'How to speak from memory with EWP',
  description: 'Rules for relying on remembered claims: look them up, report the axes, say conflict=OPEN and DEGRADED out loud, gate actions.',
};

const RULES = [
  'You have an EWP server. Memory is evidence, not belief.',
  '- Before you rely on something you remember, find it (ewp_list_propositions) and call ewp_memory_context for it. Report what the axes say; do not upgrade them.',
  '- If conflict is OPEN, say "conflict=OPEN" out loud, name the supporting and opposing evidence, and do not invent a reconciliation. Ask, or check, instead.',
  '- If sufficiency is DEGRADED, the view is incomplete (bounded retrieval, omitted sources or a degraded store): missing evidence proves nothing. Say so.',
  '- STALE means the strongest verification is older than the freshness policy; SUPERSEDED means a newer proposition replaces this one. Say which.',
  '- Only ACCEPTED claims may be stated as established facts. TENTATIVE is "I have a note that ..."; UNACCEPTED is "I have nothing that supports ...".',
  '- Repetition, retrieval rank, summaries and your own earlier statements are not verification.',
  '- Before any action that depends on a remembered claim, call ewp_may_act with its risk (low/medium/high) and reversibility. DENY: do not act. REQUIRE_CONFIRMATION: ask the human first and say why. MAY_ACT: go ahead; when the answer says claimed: true, act once, then report how it went with ewp_decision_outcome.',
  '- Never pass a warrant or a view to ewp_may_act: the server decides on the latest stored evidence at its own clock.',
].join('\n');

/** `prompts/get` for {@link AGENT_PROMPT_NAME}. */
export function getAgentPrompt(name: string): GetPromptResult {
  if (name !== AGENT_PROMPT_NAME) throw new McpError(ErrorCode.InvalidParams, `unknown prompt ${JSON.stringify(name)}`);
  return { description: AGENT_PROMPT.description, messages: [{ role: 'user', content: { type: 'text', text: RULES } }] };
}
