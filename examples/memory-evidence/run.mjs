// Offline walkthrough of the evidence layer over a SQLite ledger in a temporary directory.
// Run: pnpm --filter @ewp/example-memory-evidence start
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JsonlSalienceStore, MemoryLedger } from '@ewp/memory';
import { SqliteEvidenceStore } from '@ewp/sqlite';

const dir = mkdtempSync(join(tmpdir(), 'ewp-memory-example-'));
const store = new SqliteEvidenceStore(join(dir, 'ewp.sqlite'));
// Salience (recall counts, energy, importance) lives in a side file, never in the ledger.
const memory = new MemoryLedger(store, { salience: new JsonlSalienceStore(join(dir, 'ewp.salience.jsonl')), now: () => '2026-12-01T12:00:00Z' });
const say = (...line) => console.log(...line);

// 1. The agent's own guess, recalled over and over.
const guess = await memory.store({ text: 'The scheduler is misconfigured on every host', class: 'hypothesis' });
for (let i = 0; i < 100; i += 1) await memory.recall({ query: 'scheduler' });
let state = await memory.show(guess.hash);
say(
  `hypothesis after 100 recalls: confidence ${state.confidence}, supports ${state.support_count}, recalled ${state.salience.recall_count}, importance ${state.salience.importance}`,
);
say(
  `  gate: ${state.events
    .filter((e) => e.kind === 'memory.promo_gate')
    .map((e) => e.body.reason)
    .join(', ')}`,
);

// 2. An inference cannot support anything.
const inference = await memory.store({ text: 'So every host will miss its backup tonight', class: 'inference' });
try {
  await memory.link(inference.hash, guess.hash);
} catch (error) {
  say(`inference as support: refused, ${error.code}`);
}

// 3. The agent re-stores its own guess as an "observation": an echo, no new source.
const echo = await memory.store({ text: 'the scheduler is misconfigured on every host.', class: 'observation', supports: [guess.hash] });
say(`self-echo: echo=${echo.links[0].echo}, confidence now ${echo.links[0].target_confidence}`);

// 4. A real observation from another source raises confidence; a refutation lowers it.
const drift = await memory.store({ text: 'NTP reports a 10 minute drift on host eu-3', class: 'observation', source: 'ntp', supports: [guess.hash] });
say(`independent observation: confidence now ${drift.links[0].target_confidence}, distinct sources ${drift.links[0].target_distinct_sources}`);
const fine = await memory.store({ text: 'Host us-1 scheduler config matches the template', class: 'observation', source: 'config-audit' });
const refuted = await memory.refute(fine.hash, guess.hash);
say(`refutation: confidence now ${refuted.target_confidence}`);

// 5. Recalled again: with evidence the gate lets it through, once.
await memory.recall({ query: 'scheduler' });
state = await memory.show(guess.hash);
say(
  `after evidence: importance ${state.salience.importance}, warrant ${state.warrant.acceptance}/${state.warrant.conflict} (shown beside confidence ${state.confidence}, never fed by it)`,
);
say(`gate statistics: ${JSON.stringify(await memory.gateStats())}`);

// 6. The context and the persona file keep hot and confirmed, disputed and plain apart.
const context = await memory.autoContext();
say(`context: hot ${context.hot.rows.map((r) => `${r.class}:${r.confidence}`).join(' ')} | confirmed ${context.confirmed.rows.length}`);
const md = await memory.checkout();
say(
  md
    .split('\n')
    .filter((l) => l.startsWith('- '))
    .join('\n'),
);
const back = await memory.readBack(md.replace('on every host', 'on every host, confirmed by me'));
say(`edited MEMORY.md read back: ${back.asserted.length} new inference(s) at confidence ${back.asserted.map((a) => a.confidence).join(', ')}`);

say(`audit: chain ${(await memory.audit()).chain.ok ? 'OK' : 'FAIL'}`);
say(
  `decided: the agent's echo of its own guess counted for nothing (echo ${echo.links[0].echo}), an independent observation raised confidence to ${drift.links[0].target_confidence}, a refutation lowered it to ${refuted.target_confidence}`,
);
memory.close();
await store.close();
rmSync(dir, { recursive: true, force: true });
