import { invalidArgument, toRefusal } from '../refusal.js';
import { boundPage } from '../reply-page.js';
import { readInteger, readText } from '../tool-arguments.js';

/** How deep the list can be paged (the store reads every row before the page). */
const MAX_OFFSET = 1_000_000;
import type { ToolImplementation } from '../tool-context.js';

/** `ewp_list_propositions`: discovery of stored propositions, newest first. */
export const listPropositionsTool: ToolImplementation<'ewp_list_propositions'> = {
  async run(args, context) {
    const query = readText(args, 'query');
    const limit = readInteger(args, 'limit', 1, 500, 50);
    const cursor = readText(args, 'cursor');
    // The cursor is the offset of the page's first row, as a decimal string (opaque to the caller).
    if (cursor !== undefined && (!/^\d{1,7}$/.test(cursor) || Number(cursor) > MAX_OFFSET))
      throw invalidArgument('$.cursor', "must be a previous page's next_cursor");
    const offset = cursor === undefined ? 0 : Number(cursor);
    try {
      // One row past the page tells whether another page follows.
      const listed = await context.store.listPropositions({ ...(query === undefined ? {} : { query }), limit: offset + limit + 1 });
      const rows = listed.slice(offset, offset + limit).map((p) => ({
        proposition_id: p.proposition_id,
        latest_view_id: p.latest_view_id,
        assertions: p.assertions,
        snapshots: p.snapshots,
      }));
      const page = boundPage(rows, (p) => ({ proposition_id: p.proposition_id, latest_view_id: p.latest_view_id }));
      const more = page.taken < rows.length || listed.length > offset + limit;
      return {
        propositions: page.items as typeof rows,
        next_cursor: more ? String(offset + page.taken) : null,
        note: 'Discovery only: call ewp_memory_context or ewp_warrant_now before relying on any of these.',
      };
    } catch (error) {
      throw toRefusal(error);
    }
  },
};
