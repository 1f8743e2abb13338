import { toRefusal } from '../refusal.js';
import { readInteger, readText } from '../tool-arguments.js';
import type { EwpTool } from '../tool-context.js';

/** `ewp_list_propositions`: discovery of stored propositions, newest first. */
export const listPropositionsTool: EwpTool<'ewp_list_propositions'> = {
  name: 'ewp_list_propositions',
  title: 'List stored propositions',
  description:
    'List stored propositions, newest snapshot first, with their latest view id, up to five assertion texts and the snapshot ' +
    'count. query: case-insensitive substring of the id or an assertion text; limit 1-500 (default 50). Discovery only: no warrant.',
  writes: false,
  deterministic: true,
  async run(args, context) {
    const query = readText(args, 'query');
    const limit = readInteger(args, 'limit', 1, 500, 50);
    try {
      const propositions = await context.store.listPropositions({ ...(query === undefined ? {} : { query }), limit });
      return {
        propositions: propositions.map((p) => ({
          proposition_id: p.proposition_id,
          latest_view_id: p.latest_view_id,
          assertions: p.assertions,
          snapshots: p.snapshots,
        })),
        note: 'Discovery only: call ewp_memory_context or ewp_warrant_now before relying on any of these.',
      };
    } catch (error) {
      throw toRefusal(error);
    }
  },
};
