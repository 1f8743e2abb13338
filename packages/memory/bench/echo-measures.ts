/**
 * Prints recall and false-echo rate of every compared echo measure at each threshold, on the committed
 * paraphrase set (the one the default was chosen on), then on the two smaller sets written after it:
 * `paraphrase-holdout` (written once the rules were set, then used to fix three of them) and
 * `paraphrase-fresh` (written after the last change and never used to change anything).
 * `--verbose` lists the pairs each measure gets wrong at the default threshold (`--scores`: every score).
 * Run: `pnpm --filter @ewp/memory bench:echo` (bundles this file from the sources).
 */
import { basename, join } from 'node:path';
import { DEFAULT_MEMORY_CONFIG } from '../src/config.js';
import { comparedMeasures, ratesAt, readParaphraseSet, scorePairs, THRESHOLDS } from '../test/paraphrase-set.js';

// The bundle lives elsewhere: the runner says where the sets are.
const dir = process.env.EWP_PARAPHRASE_DIR;
const sets = dir === undefined ? [undefined] : ['paraphrase-set', 'paraphrase-holdout', 'paraphrase-fresh'].map((n) => join(dir, `${n}.jsonl`));
const verbose = process.argv.includes('--verbose');
for (const file of sets) {
  const pairs = readParaphraseSet(file);
  const same = pairs.filter((p) => p.label === 'same').length;
  console.log(
    `\n${file === undefined ? 'paraphrase-set' : basename(file, '.jsonl')}: ${pairs.length} pairs (${same} same, ${pairs.length - same} different)\n`,
  );
  console.log(`| measure | ${THRESHOLDS.map((t) => `≥ ${t.toFixed(2)}`).join(' | ')} |`);
  console.log(`| --- | ${THRESHOLDS.map(() => '---').join(' | ')} |`);
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
}
console.log('\ncells: recall (same pairs judged echo) / false-echo rate (different pairs judged echo)');
