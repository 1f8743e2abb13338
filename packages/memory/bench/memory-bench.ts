/**
 * Evidence-layer benchmark, on the SQLite store (the embedded default), one run:
 * - link with the echo check on, in a ledger of 1,000 and of 100,000 memories (the check is bounded by
 *   `search_k`, so the two should be within 2×);
 * - recall's hot path (salience update and gate check) against a plain recall (`touch: false`) of the
 *   same queries, interleaved;
 * - the promotion pass over 100,000 memories, against the floor of reading each memory's view once.
 *
 * Sizes: EWP_BENCH_MEMORIES (default 100,000); EWP_BENCH_SKIP_PASS=1 leaves out the promotion pass. Writes <repo>/bench/results/memory-layer.json (or EWP_BENCH_OUT).
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
import { emptySalience } from '../src/salience-store.js';

const LARGE = Number(process.env.EWP_BENCH_MEMORIES ?? 100_000);
const SMALL = 1000;
const CLAIMS = 50;
const EARLIER_SUPPORTS = 12;
const RECALLS = 3000;
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

  // Recall: hot path vs plain recall, same queries, interleaved in blocks of 100.
  const memory = new MemoryLedger(large, { now: () => T });
  await memory.refresh();
  const queries = Array.from({ length: RECALLS }, (_, i) => `tok${(i * 7717) % LARGE} tok${(i * 104_729) % LARGE}`);
  // Warm: every query once, so both kinds read cached views.
  for (const query of queries) await memory.recall({ query, touch: false });
  let plainMs = 0;
  let hotMs = 0;
  const timeBlock = async (block: string[], touch: boolean) => {
    const start = performance.now();
    for (const query of block) await memory.recall({ query, touch });
    return performance.now() - start;
  };
  for (let b = 0; b < RECALLS; b += 100) {
    const block = queries.slice(b, b + 100);
    // Alternate which kind goes first, so neither always runs on the other's warmed state.
    if ((b / 100) % 2 === 0) {
      plainMs += await timeBlock(block, false);
      hotMs += await timeBlock(block, true);
    } else {
      hotMs += await timeBlock(block, true);
      plainMs += await timeBlock(block, false);
    }
  }

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
      plain_ms_per_recall: plainMs / RECALLS,
      hot_ms_per_recall: hotMs / RECALLS,
      ratio_hot_over_plain: hotMs / plainMs,
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
  console.log(
    `recall: plain ${f(results.recall.plain_ms_per_recall)} ms, hot path ${f(results.recall.hot_ms_per_recall)} ms (x${f(results.recall.ratio_hot_over_plain)})`,
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
