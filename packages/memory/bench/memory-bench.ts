/**
 * Evidence-layer benchmark, on the SQLite store (the embedded default), one run:
 * - link with the echo check on, in a ledger of 1,000 and of 100,000 memories (the check is bounded by
 *   `search_k`, so the two should be within 2×);
 * - recall's hot path (salience update and gate check) against a plain recall (`touch: false`) of the
 *   same queries, interleaved, with salience in memory and in the side file (`JsonlSalienceStore`, as
 *   the CLI and `ewp serve --db` keep it); several repetitions on fresh memories, total hot time over
 *   total plain time across all of them, and the median and spread of the per-repetition ratios;
 * - the auto-context and the persona checkout over the large ledger (both read the confirmed index, built
 *   on the first call: bench/auto-context.ts measures the index against judging every memory);
 * - the promotion pass over 100,000 memories, against the floor of reading each memory's view once.
 *
 * Sizes: EWP_BENCH_MEMORIES (default 100,000); EWP_BENCH_RECALL_REPS (default 15); EWP_BENCH_SKIP_PASS=1
 * leaves out the promotion pass. Writes <repo>/bench/results/memory-layer.json (or EWP_BENCH_OUT).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { SqliteEvidenceStore } from '@ewp/sqlite';
import { figure, machineNote } from '../../ledger/test-support/store-bench-phases.js';
import { type EpistemicClass, isClaimClass } from '../src/epistemic-class.js';
import { storeEvent } from '../src/memory-events.js';
import { MemoryLedger } from '../src/memory-ledger.js';
import { defaultOrigin, type MemoryFacts, memoryHash, memoryView } from '../src/memory-records.js';
import { JsonlSalienceStore } from '../src/salience-file.js';
import { emptySalience } from '../src/salience-store.js';

const LARGE = Number(process.env.EWP_BENCH_MEMORIES ?? 100_000);
const SMALL = 1000;
const CLAIMS = 50;
const EARLIER_SUPPORTS = 12;
const RECALLS = 3000;
const RECALL_REPS = Number(process.env.EWP_BENCH_RECALL_REPS ?? 15);
const OUT = process.env.EWP_BENCH_OUT ?? join(import.meta.dirname, '..', '..', '..', 'bench', 'results', 'memory-layer.json');
const T = '2026-12-01T12:00:00Z';
const dir = mkdtempSync(join(tmpdir(), 'ewp-bench-memory-'));

/** The i-th filler memory: every fourth a hypothesis, the rest observations of 97 sensors; `tok<i>` makes it findable. */
function filler(i: number): MemoryFacts {
  const cls: EpistemicClass = i % 4 === 0 ? 'hypothesis' : 'observation';
  const text = `tok${i} sensor ${i % 97} reads ${(i * 7919) % 1000} units at station ${i % 13}`;
  const source = `sensor-${i % 97}`;
  return {
    hash: memoryHash({ text, project: null, source }),
    class: cls,
    project: null,
    source,
    text,
    origin_type: defaultOrigin(cls),
    observed_at: T,
    derived_from: [],
  };
}

/** A ledger of `n` memories, written as the library writes them (view and STORE event in one put), 1,000 per transaction. */
async function ledgerOf(n: number, name: string): Promise<SqliteEvidenceStore> {
  const store = new SqliteEvidenceStore(join(dir, `${name}.sqlite`));
  for (let start = 0; start < n; start += 1000) {
    const facts = Array.from({ length: Math.min(1000, n - start) }, (_, k) => filler(start + k));
    await store.putMany(facts.map(memoryView), { entries: facts.map(storeEvent) });
  }
  return store;
}

/** The six orders of three arms. */
const ORDERS = [
  [0, 1, 2],
  [0, 2, 1],
  [1, 0, 2],
  [1, 2, 0],
  [2, 0, 1],
  [2, 1, 0],
];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Per-link time (ms): CLAIMS claims with EARLIER_SUPPORTS same-source supports each; then one more same-source link each, timed. */
async function linkCost(store: SqliteEvidenceStore, round: number): Promise<{ per_link_ms: number; echo_links: number }> {
  const memory = new MemoryLedger(store, { now: () => T });
  await memory.refresh();
  const timed: [string, string][] = [];
  for (let c = 0; c < CLAIMS; c += 1) {
    const claim = await memory.store({ text: `round ${round} claim ${c}: station ${c} is calibrated`, class: 'inference' });
    for (let s = 0; s < EARLIER_SUPPORTS; s += 1) {
      await memory.store({
        text: `round ${round} station ${c} check ${s}: offset ${s * 3} within tolerance`,
        class: 'observation',
        source: 'calibrator',
        supports: [claim.hash],
      });
    }
    // Half the timed links are echoes of an earlier support, half are new.
    const text =
      c % 2 === 0 ? `round ${round} station ${c} check 3: offset 9 within tolerance.` : `round ${round} station ${c} thermal drift ${c} mK after warm-up`;
    timed.push([(await memory.store({ text, class: 'observation', source: 'calibrator' })).hash, claim.hash]);
  }
  const times: number[] = [];
  let echoes = 0;
  for (const [support, target] of timed) {
    const t0 = performance.now();
    const r = await memory.link(support, target);
    times.push(performance.now() - t0);
    if (r.echo) echoes += 1;
  }
  return { per_link_ms: median(times), echo_links: echoes };
}

async function main() {
  mkdirSync(dirname(OUT), { recursive: true });
  let t0 = performance.now();
  const small = await ledgerOf(SMALL, 'small');
  const large = await ledgerOf(LARGE, 'large');
  const buildSeconds = (performance.now() - t0) / 1000;

  // Link cost in each ledger: a warm-up round on both, then the measured round.
  await linkCost(small, 0);
  await linkCost(large, 0);
  const smallLinks = await linkCost(small, 1);
  const largeLinks = await linkCost(large, 1);

  // Recall: hot path vs plain recall (`touch: false`), same queries, in blocks of 100 alternating which
  // goes first, in RECALL_REPS repetitions; the memories each repetition touches are fresh where the
  // ledger is large enough. Two pairs: salience in memory (`memory`) and in a side file (`filed`), each
  // against a plain recall of the same ledger object. The promotion threshold is out of reach here, so
  // this is the steady hot path (salience update and the gate check); the gate's one write per memory
  // is the promotion pass's to measure.
  const noPromotion = { promotion_energy: 1e12 };
  const memory = new MemoryLedger(large, { now: () => T, config: noPromotion });
  const sideFile = new JsonlSalienceStore(join(dir, 'large.salience.jsonl'));
  const filed = new MemoryLedger(large, { now: () => T, config: noPromotion, salience: sideFile });
  await memory.refresh();
  await filed.refresh();
  // Wall time and this process's CPU time (user + system): on a machine shared with other work the
  // CPU time is the steadier of the two, the wall time what a caller waits.
  // The side file's lines go out after the recalls (write-behind, off the hot path): that write is
  // timed on its own, after each hot block, and reported beside the hot path.
  type Spent = { wall: number; cpu: number; write: number };
  const timeBlock = async (ledger: MemoryLedger, block: string[], touch: boolean, into: Spent) => {
    const cpu = process.cpuUsage();
    const start = performance.now();
    for (const query of block) await ledger.recall({ query, touch });
    into.wall += performance.now() - start;
    const used = process.cpuUsage(cpu);
    into.cpu += (used.user + used.system) / 1000;
    if (ledger === filed && touch) {
      const t = performance.now();
      sideFile.flush();
      into.write += performance.now() - t;
    }
  };
  /**
   * Plain and hot recalls of `queries` on `ledger`, interleaved, with a control: each block is also
   * recalled plainly a second time (`again`), so `again` over `plain` is the ratio of two identical
   * arms, the noise the hot path's ratio is read against. The three run in rotating order.
   */
  const pair = async (ledger: MemoryLedger, queries: string[]) => {
    const plain: Spent = { wall: 0, cpu: 0, write: 0 };
    const hot: Spent = { wall: 0, cpu: 0, write: 0 };
    const again: Spent = { wall: 0, cpu: 0, write: 0 };
    const arms: [boolean, Spent][] = [
      [false, plain],
      [true, hot],
      [false, again],
    ];
    for (let b = 0; b < queries.length; b += 100) {
      const block = queries.slice(b, b + 100);
      // Each of the six orders in turn: every arm as often first, second and third, and after each other.
      for (const k of ORDERS[(b / 100) % ORDERS.length]!) {
        const [touch, into] = arms[k]!;
        await timeBlock(ledger, block, touch, into);
      }
    }
    return {
      plain,
      hot,
      again,
      plain_ms: plain.wall / queries.length,
      hot_ms: hot.wall / queries.length,
      write_ms: hot.write / queries.length,
      ratio: hot.wall / plain.wall,
      ratio_with_write: (hot.wall + hot.write) / plain.wall,
      cpu_ratio: hot.cpu / plain.cpu,
    };
  };
  const reps: {
    plain_ms: number;
    hot_ms: number;
    hot_file_ms: number;
    write_behind_ms: number;
    ratio: number;
    ratio_file: number;
    ratio_file_with_write: number;
    cpu_ratio: number;
    cpu_ratio_file: number;
  }[] = [];
  // Time summed over every block of every repetition: a collection pause of a few ms lands in one
  // block of 100 recalls (about 1 ms), which swings that repetition's ratio by a third, so the
  // headline ratio is total hot time over total plain time; the per-repetition ratios show the spread.
  const total = { plain: 0, hot: 0, again: 0, plainFile: 0, hotFile: 0, againFile: 0, write: 0, cpuPlain: 0, cpuHot: 0, cpuPlainFile: 0, cpuHotFile: 0 };
  for (let r = 0; r < RECALL_REPS; r += 1) {
    const queriesFor = (offset: number) =>
      Array.from({ length: RECALLS }, (_, i) => {
        const k = offset + i;
        return `tok${(k * 7717) % LARGE} tok${(k * 104_729 + 1) % LARGE}`;
      });
    const inMemory = queriesFor(2 * r * RECALLS);
    const inFile = queriesFor((2 * r + 1) * RECALLS);
    // Warm: every query once, so both kinds read cached views.
    for (const query of inMemory) await memory.recall({ query, touch: false });
    for (const query of inFile) await filed.recall({ query, touch: false });
    // Which pair goes first alternates: the second runs in a heap the first has grown.
    let a: Awaited<ReturnType<typeof pair>>;
    let b: Awaited<ReturnType<typeof pair>>;
    if (r % 2 === 0) {
      a = await pair(memory, inMemory);
      b = await pair(filed, inFile);
    } else {
      b = await pair(filed, inFile);
      a = await pair(memory, inMemory);
    }
    total.plain += a.plain.wall;
    total.hot += a.hot.wall;
    total.again += a.again.wall;
    total.againFile += b.again.wall;
    total.cpuPlain += a.plain.cpu;
    total.cpuHot += a.hot.cpu;
    total.plainFile += b.plain.wall;
    total.hotFile += b.hot.wall;
    total.cpuPlainFile += b.plain.cpu;
    total.cpuHotFile += b.hot.cpu;
    total.write += b.hot.write;
    reps.push({
      plain_ms: a.plain_ms,
      hot_ms: a.hot_ms,
      hot_file_ms: b.hot_ms,
      write_behind_ms: b.write_ms,
      ratio: a.ratio,
      ratio_file: b.ratio,
      ratio_file_with_write: b.ratio_with_write,
      cpu_ratio: a.cpu_ratio,
      cpu_ratio_file: b.cpu_ratio,
    });
  }
  filed.close();

  // The auto-context and the persona checkout of the large ledger's scope (the first call builds the
  // confirmed index over every memory), with the salience the recalls above left. Median of 3.
  const contextMs: number[] = [];
  const checkoutMs: number[] = [];
  for (let r = 0; r < 3; r += 1) {
    let t = performance.now();
    await memory.autoContext();
    contextMs.push(performance.now() - t);
    t = performance.now();
    await memory.checkout();
    checkoutMs.push(performance.now() - t);
  }
  const medianOf = (key: keyof (typeof reps)[number]) => median(reps.map((x) => x[key]));

  // Promotion pass over every memory of the large ledger, all at the promotion threshold.
  const skipPass = process.env.EWP_BENCH_SKIP_PASS === '1';
  const pass = new MemoryLedger(large, { now: () => T });
  await pass.refresh();
  for (let i = 0; i < (skipPass ? 0 : LARGE); i += 1) pass.salience.set(filler(i).hash, { ...emptySalience(), recall_count: 5, energy: 5 });
  t0 = performance.now();
  for (let i = 0; i < (skipPass ? 0 : LARGE); i += 1) await large.get(`mem:${filler(i).hash}`);
  const readAllMs = performance.now() - t0;
  t0 = performance.now();
  const passResult = await pass.promotionPass();
  const passMs = performance.now() - t0;
  const expectedBlocked = Array.from({ length: LARGE }, (_, i) => filler(i)).filter((f) => isClaimClass(f.class)).length;

  const results = {
    benchmark: 'memory-layer',
    date: new Date().toISOString(),
    machine: { ...machineNote(), note: 'shared 2-core machine, other engineers building and testing; indicative figures' },
    store: 'sqlite (file in tmpdir)',
    sizes: { small: SMALL, large: LARGE, claims: CLAIMS, earlier_supports_per_claim: EARLIER_SUPPORTS, recalls: RECALLS },
    build_seconds: buildSeconds,
    link: {
      per_link_ms_small: smallLinks.per_link_ms,
      per_link_ms_large: largeLinks.per_link_ms,
      ratio_large_over_small: largeLinks.per_link_ms / smallLinks.per_link_ms,
      echo_links: [smallLinks.echo_links, largeLinks.echo_links],
    },
    recall: {
      repetitions: RECALL_REPS,
      recalls_per_kind: RECALL_REPS * RECALLS,
      all_blocks: {
        ratio_hot_over_plain: total.hot / total.plain,
        ratio_hot_file_over_plain: total.hotFile / total.plainFile,
        ratio_hot_file_with_write_behind_over_plain: (total.hotFile + total.write) / total.plainFile,
        control_ratio_plain_again_over_plain: total.again / total.plain,
        control_ratio_plain_again_over_plain_file: total.againFile / total.plainFile,
        cpu_ratio_hot_over_plain: total.cpuHot / total.cpuPlain,
        cpu_ratio_hot_file_over_plain: total.cpuHotFile / total.cpuPlainFile,
        plain_us_per_recall: (total.plain * 1000) / (RECALL_REPS * RECALLS),
        hot_us_per_recall: (total.hot * 1000) / (RECALL_REPS * RECALLS),
      },
      plain_ms_per_recall: medianOf('plain_ms'),
      hot_ms_per_recall: medianOf('hot_ms'),
      hot_file_ms_per_recall: medianOf('hot_file_ms'),
      ratio_hot_over_plain: medianOf('ratio'),
      ratio_hot_file_over_plain: medianOf('ratio_file'),
      write_behind_ms_per_recall: medianOf('write_behind_ms'),
      ratio_hot_file_with_write_behind_over_plain: medianOf('ratio_file_with_write'),
      cpu_ratio_hot_over_plain: medianOf('cpu_ratio'),
      cpu_ratio_hot_file_over_plain: medianOf('cpu_ratio_file'),
      ratios: reps.map((x) => x.ratio),
      ratios_file: reps.map((x) => x.ratio_file),
      cpu_ratios: reps.map((x) => x.cpu_ratio),
      cpu_ratios_file: reps.map((x) => x.cpu_ratio_file),
    },
    context: {
      memories: LARGE,
      auto_context_ms: median(contextMs),
      checkout_ms: median(checkoutMs),
      us_per_memory_auto_context: (median(contextMs) * 1000) / LARGE,
    },
    promotion_pass: {
      memories: LARGE,
      pass_seconds: passMs / 1000,
      us_per_memory: (passMs * 1000) / LARGE,
      read_every_view_seconds: readAllMs / 1000,
      ratio_pass_over_read: passMs / readAllMs,
      ...passResult,
      expected_blocked: expectedBlocked,
    },
  };
  writeFileSync(OUT, `${JSON.stringify(results, null, 2)}\n`);
  const f = figure;
  console.log(`ledgers built in ${f(buildSeconds)} s (${SMALL} and ${LARGE} memories, SQLite)`);
  console.log(
    `link with echo check: ${f(smallLinks.per_link_ms)} ms at ${SMALL}, ${f(largeLinks.per_link_ms)} ms at ${LARGE} (x${f(results.link.ratio_large_over_small)})`,
  );
  const all = results.recall.all_blocks;
  console.log(
    `recall, all ${RECALL_REPS * RECALLS} recalls of each kind: plain ${f(all.plain_us_per_recall)} us, hot path x${all.ratio_hot_over_plain.toFixed(3)}, with the side file x${all.ratio_hot_file_over_plain.toFixed(3)} (its write-behind, timed apart, x${all.ratio_hot_file_with_write_behind_over_plain.toFixed(3)}); CPU time x${all.cpu_ratio_hot_over_plain.toFixed(3)}, side file x${all.cpu_ratio_hot_file_over_plain.toFixed(3)}; control (a plain recall again over plain) x${all.control_ratio_plain_again_over_plain.toFixed(3)}, side file x${all.control_ratio_plain_again_over_plain_file.toFixed(3)}`,
  );
  console.log(
    `recall (median of ${RECALL_REPS}): plain ${f(results.recall.plain_ms_per_recall)} ms, hot path ${f(results.recall.hot_ms_per_recall)} ms (x${results.recall.ratio_hot_over_plain.toFixed(3)}), hot path with the side file ${f(results.recall.hot_file_ms_per_recall)} ms (x${results.recall.ratio_hot_file_over_plain.toFixed(3)}; with its write-behind, timed apart, x${results.recall.ratio_hot_file_with_write_behind_over_plain.toFixed(3)}); CPU time x${results.recall.cpu_ratio_hot_over_plain.toFixed(3)}, side file x${results.recall.cpu_ratio_hot_file_over_plain.toFixed(3)}`,
  );
  console.log(
    `  per repetition, wall: ${reps.map((x) => x.ratio.toFixed(3)).join(' ')}; side file ${reps.map((x) => x.ratio_file.toFixed(3)).join(' ')}; CPU: ${reps.map((x) => x.cpu_ratio.toFixed(3)).join(' ')}; side file ${reps.map((x) => x.cpu_ratio_file.toFixed(3)).join(' ')}`,
  );
  console.log(
    `auto-context over ${LARGE} memories: ${f(results.context.auto_context_ms)} ms (${f(results.context.us_per_memory_auto_context)} us/memory); checkout ${f(results.context.checkout_ms)} ms`,
  );
  console.log(
    `promotion pass over ${LARGE}: ${f(passMs / 1000)} s (${f(results.promotion_pass.us_per_memory)} us/memory; reading every view once: ${f(readAllMs / 1000)} s); allowed ${passResult.allowed}, blocked ${passResult.blocked}`,
  );
  console.log(`wrote ${OUT}`);
  await small.close();
  await large.close();
  rmSync(dir, { recursive: true, force: true });
}

await main();
