import { loadStoredView } from '../stored-view.js';
import { readId } from '../tool-arguments.js';
import type { ToolImplementation } from '../tool-context.js';

/** `ewp_evidence_view_get`: a stored snapshot, exactly as stored. */
export const evidenceViewGetTool: ToolImplementation<'ewp_evidence_view_get'> = {
  async run(args, context) {
    const propositionId = readId(args, 'proposition_id', true);
    const view = await loadStoredView(context.store, propositionId, readId(args, 'view_id'));
    return { ...view, adapter_meta: view.adapter_meta ?? {} };
  },
};
