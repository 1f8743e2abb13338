import type { Command } from './cli-io.js';

/** Verb → lazily loaded implementation, so `ewp eval` never loads SQLite or the MCP SDK. */
export const COMMANDS: Record<string, { summary: string; load: () => Promise<Command> }> = {
  eval: { summary: 'evaluate views: a table, or --jsonl batch from stdin', load: async () => (await import('./commands/eval.js')).evalCommand },
};
