// Offline Mem0 walkthrough: a real open-source Mem0 Memory (SQLite vector store, deterministic local
// embedder, no LLM, no network) holding EWP evidence. Run: pnpm --filter @ewp/example-mem0 start
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mayAct, REFERENCE_V2, warrantNow } from '@ewp/core';
import { StoreUnavailableError } from '@ewp/ledger';
import { mem0Adapter } from '@ewp/mem0';
import { offlineMemory } from '@ewp/mem0-testing';

const dir = mkdtempSync(join(tmpdir(), 'ewp-example-mem0-'));
const T = '2026-09-23T12:00:00Z';
const source = (id, origin, lineage) => ({
  source_id: id,
  lineage_id: lineage,
  origin_type: origin,
  origin_locator: `loc:${id}`,
  snapshot_id: `snap:${id}`,
  content_hash: `sha256:${id}`,
  observed_at: '2026-09-22T08:00:00Z',
  extractor_id: null,
  parent_source_id: null,
});
const view = {
  proposition_id: 'P-deploys-from-main',
  view_id: 'v1',
  subjects: ['ci'],
  assertions: [
    {
      assertion_id: 'a1',
      text: 'Production deploys only from the main branch',
      asserted_by: 'agent',
      assertion_confidence: 0.9,
      source: source('doc', 'document', 'L-doc'),
      asserted_at: '2026-09-22T08:00:00Z',
    },
  ],
  evidence: [
    {
      evidence_id: 'e1',
      polarity: 'supports',
      content: 'CI config: deploy job runs on refs/heads/main only',
      source: source('ci', 'tool', 'L-ci'),
      observed_at: '2026-09-22T08:00:00Z',
    },
  ],
  checks: [
    {
      check_id: 'k1',
      method: 'tool_observation',
      scope: 'ci pipeline',
      source: source('ci', 'tool', 'L-ci'),
      observed_at: '2026-09-22T09:00:00Z',
      result: 'supports',
      subjects: ['ci'],
    },
  ],
};

try {
  let refusedRead = 'not refused';
  const memory = await offlineMemory(dir);
  const store = mem0Adapter(memory, { userId: 'example-agent' });
  await store.put(view);
  const back = await store.get('P-deploys-from-main');
  console.log('read back from Mem0:', back.assertions.length, 'assertion(s),', back.evidence.length, 'evidence item(s),', back.checks.length, 'check(s)');
  const warrant = warrantNow(back, REFERENCE_V2, T);
  console.log('warrant:', warrant.warrant);
  const deploy = mayAct(warrant, { action_id: 'deploy', kind: 'deploy', risk: 'high', reversible: false });
  console.log('may deploy:', deploy);

  // A second client on the same Mem0 entity extends the snapshot: the same engine, the same rules.
  const other = mem0Adapter(memory, { userId: 'example-agent' });
  await other.extend('P-deploys-from-main', [
    { kind: 'evidence', record: { ...view.evidence[0], evidence_id: 'e2', content: 'Branch protection: main requires review' } },
  ]);
  console.log(
    'snapshots:',
    (await store.listSnapshots('P-deploys-from-main')).map((s) => s.view_id),
  );
  const chain = await store.verifyChain();
  console.log('chain:', chain.ok, chain.length, 'entries; not guaranteed on Mem0:', chain.not_guaranteed);

  // Something deletes a memory behind the store's back: the next read is refused, not silently partial.
  const [member] = (await store.rawRecords('P-deploys-from-main')).filter((m) => m.metadata.ewp_searchable === true);
  await memory.delete(member.id);
  try {
    await store.get('P-deploys-from-main');
  } catch (error) {
    if (!StoreUnavailableError.isInstance(error)) throw error;
    console.log('refused:', error.code, error.reason, '-', error.message);
    refusedRead = error.code;
  }
  console.log(`decided: deploy from Mem0's evidence ${deploy}; a read after a memory was deleted behind the store's back ${refusedRead}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
