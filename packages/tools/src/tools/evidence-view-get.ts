import { loadStoredView } from '../stored-view.js';
import { readId } from '../tool-arguments.js';
import type { EwpTool } from '../tool-context.js';

/** `ewp_evidence_view_get`: a stored snapshot, exactly as stored. */
export const evidenceViewGetTool: EwpTool<'ewp_evidence_view_get'> = {
  name: 'ewp_evidence_view_get',
  title: 'Read a stored evidence view',
  description: 'Read the latest stored EvidenceView of a proposition, or exactly the snapshot view_id. Evidence only: no warrant.',
  writes: false,
  deterministic: true,
  async run(args, context) {
    const propositionId = readId(args, 'proposition_id', true);
    const view = await loadStoredView(context.store, propositionId, readId(args, 'view_id'));
    return { ...view, adapter_meta: view.adapter_meta ?? {} };
  },
};
