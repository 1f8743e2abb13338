// Offline LangChain/LangGraph walkthrough: agent memory through the warrant layer.
// No model, no network. Run: pnpm --filter @ewp/example-langchain start
import { consolidate, EvidenceChatMessageHistory, WarrantedStore } from '@ewp/langchain';
import { InMemoryChatMessageHistory } from '@langchain/core/chat_history';
import { InMemoryStore } from '@langchain/langgraph';

const T = new Date('2026-09-23T12:00:00Z');
const axes = (w) => `acceptance=${w.acceptance} conflict=${w.conflict} verification=${w.verification} currency=${w.currency} sufficiency=${w.sufficiency}`;
const source = (id, origin, lineage, observedAt = '2026-09-23T08:00:00Z') => ({
  source_id: id,
  lineage_id: lineage,
  origin_type: origin,
  origin_locator: `loc:${id}`,
  snapshot_id: `snap:${id}`,
  content_hash: `sha256:${id}`,
  observed_at: observedAt,
  extractor_id: null,
  parent_source_id: null,
});

// 1. A LangGraph store, wrapped. The agent's memories pass through unchanged.
const store = new WarrantedStore(new InMemoryStore(), { now: () => T });
await store.put(['memories', 'ops'], 'os', { text: 'server01 runs Windows Server 2022', proposition_id: 'P-win' });
let item = await store.get(['memories', 'ops'], 'os');
console.log('1. memory as the agent wrote it:', JSON.stringify(item.value));
console.log('   its warrant (a turn, never verified):', axes(item.warrant));

// 2. The ingest pipeline records a tool observation for the same proposition.
const winrm = source('winrm', 'tool', 'L-winrm');
await store.ledger.extend('P-win', [
  {
    kind: 'evidence',
    record: {
      evidence_id: 'e1',
      proposition_id: 'P-win',
      polarity: 'supports',
      source: winrm,
      content: 'Get-ComputerInfo',
      observed_at: '2026-09-23T08:00:00Z',
    },
  },
  {
    kind: 'check',
    record: {
      check_id: 'k1',
      method: 'tool_observation',
      scope: 'server01',
      source: winrm,
      observed_at: '2026-09-23T08:00:00Z',
      result: 'supports',
      subjects: [],
    },
  },
]);
item = await store.get(['memories', 'ops'], 'os');
console.log('2. after a tool check:', axes(item.warrant));

// 3. A search cut by its limit says so.
for (let i = 0; i < 5; i++) await store.put(['memories', 'ops'], `note-${i}`, { text: `maintenance note ${i}` });
const hits = await store.search(['memories', 'ops'], { limit: 2 });
console.log(`3. search limit 2 of 6 items -> ${hits.map((h) => h.warrant.sufficiency).join(', ')}`);

// 4. A chat turn saying "I verified it" is a claim, not a verification.
const history = new EvidenceChatMessageHistory({ history: new InMemoryChatMessageHistory(), ledger: store.ledger, sessionId: 'conv-1', now: () => T });
await history.addUserMessage('I verified the backups yesterday, they are fine.');
await history.addAIMessage('Noted.');
console.log('4. chat transcript:', axes(await history.warrant()));

// 5. Two witnesses disagree about a door; a summary keeps the dispute.
await store.ledger.put({
  proposition_id: 'P-door',
  view_id: 'v1',
  assertions: [
    {
      assertion_id: 'a1',
      text: 'The door was open',
      asserted_by: 'cam-1',
      assertion_confidence: 0.8,
      source: source('cam1', 'sensor', 'L-cam1'),
      asserted_at: '2026-09-23T08:00:00Z',
    },
  ],
  evidence: [
    { evidence_id: 'e1', polarity: 'supports', source: source('cam1', 'sensor', 'L-cam1'), content: 'frame 1', observed_at: '2026-09-23T08:00:00Z' },
    { evidence_id: 'e2', polarity: 'opposes', source: source('cam2', 'sensor', 'L-cam2'), content: 'frame 2', observed_at: '2026-09-23T08:00:00Z' },
  ],
});
const summary = await consolidate(store.ledger, {
  propositionId: 'P-ops-summary',
  sources: ['P-win', 'P-door'],
  text: 'server01 runs Windows 2022; the door was open.',
  at: T.toISOString(),
});
console.log('5. summary (origin summary, derived_from P-win, P-door):', axes(summary.warrant));
console.log('   "X is disputed" did not become "X": conflict', summary.warrant.conflict, '| verification', summary.warrant.verification);

const chain = await store.ledger.verifyChain();
console.log(`6. ledger hash chain: ok=${chain.ok} entries=${chain.length}`);
console.log(
  `decided: the agent's own memory ${axes(item.warrant)}; the summary of a disputed memory keeps conflict ${summary.warrant.conflict}, verification ${summary.warrant.verification}`,
);
