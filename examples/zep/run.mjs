// Offline Zep walkthrough: the official @getzep/zep-cloud client against the local server that speaks
// Zep's v2 graph API (set ZEP_API_KEY to use Zep Cloud instead). Run: pnpm --filter @ewp/example-zep start
import { mayAct, REFERENCE_V2, warrantNow } from '@ewp/core';
import { ZepClient } from '@getzep/zep-cloud';
import { ZepAdapter } from '@ewp/zep';
import { startZepGraphServer } from '@ewp/zep-testing';

const T = '2026-09-23T12:00:00Z';
const local = process.env.ZEP_API_KEY ? undefined : await startZepGraphServer();
const client = local ? new ZepClient({ apiKey: local.apiKey, baseUrl: local.baseUrl }) : new ZepClient({ apiKey: process.env.ZEP_API_KEY });
const graphId = `ewp-example-${Date.now()}`;
await client.graph.create({ graphId });
const store = new ZepAdapter({ client, graphId }); // an EvidenceStore

const source = {
  source_id: 'runbook',
  lineage_id: 'L-runbook',
  origin_type: 'document',
  origin_locator: 'wiki:runbooks/db',
  snapshot_id: 'rev-42',
  content_hash: 'sha256:runbook',
  observed_at: '2026-09-20T10:00:00Z',
  extractor_id: null,
  parent_source_id: null,
};
const view = {
  proposition_id: 'P-prod-db-version',
  view_id: 'v1',
  assertions: [
    { assertion_id: 'a1', text: 'Production runs PostgreSQL 16', asserted_by: 'agent', assertion_confidence: 0.8, source, asserted_at: '2026-09-20T10:00:00Z' },
  ],
  evidence: [{ evidence_id: 'e1', polarity: 'supports', content: 'Runbook: prod cluster on PostgreSQL 16.4', source, observed_at: '2026-09-20T10:00:00Z' }],
};

try {
  await store.put(view);
  const back = await store.get('P-prod-db-version');
  const warrant = warrantNow(back, REFERENCE_V2, T);
  console.log('snapshot read back from Zep:', back.view_id, warrant.warrant);
  const migrate = mayAct(warrant, { action_id: 'migrate', kind: 'db', risk: 'high' });
  console.log('may run the migration:', migrate);
  const found = await store.search('P-prod-db-version', 'PostgreSQL 16', { limit: 1 });
  console.log('Zep search over the claims:', found.view_id, found.retrieval_scope, 'omitted', found.omitted_sources);
  console.log('chain verifies:', (await store.verifyChain()).ok);

  // A fact Zep holds on its own, already invalidated by Zep: read as untrusted, never SUPERSEDED.
  await client.graph.addFactTriple({
    graphId,
    fact: 'Production runs PostgreSQL 14',
    factName: 'RUNS',
    sourceNodeName: 'production',
    targetNodeName: 'PostgreSQL 14',
    invalidAt: '2026-06-01T00:00:00Z',
  });
  const facts = await store.readNative('P-prod-db-version');
  console.log(
    "Zep's own facts:",
    facts.assertions.map((a) => `${a.text} (${a.source.origin_type})`),
  );
  console.log('store notes:', facts.adapter_meta['@ewp/zep'].store_notes);
  const native = warrantNow(facts, REFERENCE_V2, new Date().toISOString()).warrant;
  console.log('warrant of the facts view:', native);
  console.log(`decided: the migration on the stored evidence ${migrate}; Zep's own facts read as acceptance ${native.acceptance}, currency ${native.currency}`);
} finally {
  await local?.close();
}
