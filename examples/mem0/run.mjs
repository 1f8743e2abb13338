// Offline Mem0 walkthrough: a real open-source Mem0 Memory (SQLite vector store, deterministic local
// embedder, no LLM, no network) holding EWP evidence. Run: pnpm --filter @ewp/example-mem0 start
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REFERENCE_V2, warrantNow } from '@ewp/core';
import { Mem0AdapterError, mem0Adapter, offlineMemory } from '@ewp/mem0';

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
  const memory = await offlineMemory(dir);
  const adapter = mem0Adapter(memory, { userId: 'example-agent' });
  await adapter.write(view);
  const back = await adapter.read('P-deploys-from-main');
  console.log('read back from Mem0:', back.assertions.length, 'assertion(s),', back.evidence.length, 'evidence item(s),', back.checks.length, 'check(s)');
  console.log('warrant:', warrantNow(back, REFERENCE_V2, T).warrant);

  // Something edits a memory behind the adapter's back: the next read is refused, not silently used.
  const [member] = (await adapter.rawRecords('P-deploys-from-main')).filter((m) => m.metadata.ewp_kind === 'evidence');
  await memory.update(member.id, { text: 'CI config: deploy job runs on any branch' });
  try {
    await adapter.read('P-deploys-from-main');
  } catch (error) {
    if (!(error instanceof Mem0AdapterError)) throw error;
    console.log('refused:', error.code, error.details);
  }
  const partial = await adapter.read('P-deploys-from-main', { allowPartial: true });
  console.log('explicitly partial view:', partial.retrieval_scope, 'omitted', partial.omitted_sources, '->', warrantNow(partial, REFERENCE_V2, T).warrant.sufficiency);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
