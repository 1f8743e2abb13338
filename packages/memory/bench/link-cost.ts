/**
 * Cost of a link (store with supports) under the trigram measure and the word-vector default, with
 * distinct propositions from one source (so every link runs the echo check against up to 4 × search_k
 * earlier texts). The vectors are read before timing (once per process); that read is reported apart.
 * Run: `pnpm --filter @ewp/memory bench:link`.
 */
import { cpus } from 'node:os';
import { MemoryEvidenceStore } from '@ewp/ledger';
import { MemoryLedger } from '../src/memory-ledger.js';
import type { SimilarityMeasureName } from '../src/similarity.js';
import { loadWordVectors } from '../src/word-vectors.js';

const LINKS = Number(process.env.EWP_BENCH_LINKS ?? 400);
const ROUNDS = 3;
const T = '2026-12-01T00:00:00Z';

async function run(measure: SimilarityMeasureName): Promise<number> {
  const memory = new MemoryLedger(new MemoryEvidenceStore(), { now: () => T, config: { measure } });
  const claim = await memory.store({ text: 'The scheduler is misconfigured on every host', class: 'hypothesis', source: 'ops' });
  const t0 = performance.now();
  for (let i = 0; i < LINKS; i += 1) {
    const text = `Host web-${i} reports scheduler drift of ${(i * 37) % 97} seconds after the ${i % 24}:00 run`;
    await memory.store({ text, class: 'observation', source: 'ntp', supports: [claim.hash] });
  }
  return (performance.now() - t0) / LINKS;
}

const t = performance.now();
await loadWordVectors();
const loadMs = performance.now() - t;
const out: Record<string, number[]> = { 'trigram-cosine': [], 'word-vectors': [] };
for (let r = 0; r < ROUNDS; r += 1) {
  for (const m of ['trigram-cosine', 'word-vectors'] as const) out[m]!.push(await run(m));
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const tri = median(out['trigram-cosine']!);
const wv = median(out['word-vectors']!);
console.log(`machine: ${cpus().length} cores, ${cpus()[0]?.model ?? '?'}, node ${process.version}`);
console.log(`word vectors read once: ${loadMs.toFixed(0)} ms`);
console.log(
  `link (store with supports), ${LINKS} links x ${ROUNDS} rounds, median ms/link: trigram-cosine ${tri.toFixed(3)}, word-vectors ${wv.toFixed(3)}, ratio ${(wv / tri).toFixed(2)}x`,
);
