/**
 * Prints recall and false-echo rate of every compared echo measure on the committed paraphrase set,
 * at each threshold, and the pairs the default measure gets wrong at the default threshold.
 * Run: `pnpm --filter @ewp/memory bench:echo` (bundles this file from the sources).
 */
import { DEFAULT_MEMORY_CONFIG } from '../src/config.js';
import { comparedMeasures, ratesAt, readParaphraseSet, scorePairs, THRESHOLDS } from '../test/paraphrase-set.js';

// The bundle lives elsewhere: the runner says where the set is.
const pairs = readParaphraseSet(process.env.EWP_PARAPHRASE_SET);
const same = pairs.filter((p) => p.label === 'same').length;
console.log(`paraphrase set: ${pairs.length} pairs (${same} same, ${pairs.length - same} different)\n`);
console.log(`| measure | ${THRESHOLDS.map((t) => `≥ ${t.toFixed(2)}`).join(' | ')} |`);
console.log(`| --- | ${THRESHOLDS.map(() => '---').join(' | ')} |`);
const verbose = process.argv.includes('--verbose');
for (const { name, measure } of comparedMeasures()) {
  const t0 = performance.now();
  const scores = await scorePairs(measure, pairs);
  const ms = performance.now() - t0;
  const cells = THRESHOLDS.map((t) => {
    const r = ratesAt(pairs, scores, t);
    return `${r.recall.toFixed(2)} / ${r.falseEchoRate.toFixed(2)}`;
  });
  console.log(`| ${name} | ${cells.join(' | ')} |`);
  if (verbose) {
    const r = ratesAt(pairs, scores, DEFAULT_MEMORY_CONFIG.sim_threshold);
    console.error(`${name} (${ms.toFixed(0)} ms, first call reads the vectors): missed ${r.missed.join(' ')}\n  false echoes ${r.wrong.join(' ')}`);
    if (process.argv.includes('--scores')) {
      for (const [i, p] of pairs.entries()) console.error(`  ${p.id} ${p.label} ${scores[i]!.toFixed(3)} | ${p.a} | ${p.b}`);
    }
  }
}
console.log('\ncells: recall (same pairs judged echo) / false-echo rate (different pairs judged echo)');
