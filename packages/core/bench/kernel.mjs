// Kernel benchmark: throughput on the 52 pack fixtures and linear scaling on synthetic views.
// Usage: node bench/kernel.mjs            (sizes 10, 1k, 100k, 1M; ~1 minute)
//        EWP_BENCH_QUICK=1 node bench/kernel.mjs   (CI-sized)
// Results: <repo>/bench/results/core-kernel.json
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { decodeView, decodeViewJson, parseJson, parseJsonExact, REFERENCE_V2, warrantNow } from '../dist/index.js';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const QUICK = process.env.EWP_BENCH_QUICK === '1';

function timeLoop(fn, minMs = QUICK ? 300 : 1500) {
  for (let i = 0; i < 200; i++) fn(); // warm-up
  let n = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < minMs) {
    for (let i = 0; i < 50; i++) fn();
    n += 50;
    elapsed = performance.now() - start;
  }
  return (n * 1000) / elapsed; // calls per second
}

function fixtureThroughput() {
  const dir = `${REPO}conformance/pack/fixtures/`;
  const texts = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => readFileSync(dir + f, 'utf8'));
  const values = texts.map((t) => parseJson(t));
  const decoded = values.map((v) => decodeView(v));
  const ats = values.map((v) => v.evaluated_at);
  let i = 0;
  const n = texts.length;
  const evalOnly = timeLoop(() => {
    const k = i++ % n;
    warrantNow(decoded[k], REFERENCE_V2, ats[k]);
  });
  const decodeEval = timeLoop(() => {
    const k = i++ % n;
    warrantNow(decodeView(values[k]), REFERENCE_V2, ats[k]);
  });
  const fromText = timeLoop(() => {
    const k = i++ % n;
    warrantNow(decodeViewJson(texts[k]), REFERENCE_V2, ats[k]);
  });
  // Baselines in the same run: the platform's own JSON parser and serializer on the same texts.
  const jsonParse = timeLoop(() => {
    JSON.parse(texts[i++ % n]);
  });
  const jsonStringify = timeLoop(() => {
    JSON.stringify(values[i++ % n]);
  });
  // The reader with its native fast path, and the exact reader alone, against JSON.parse.
  const parseFast = timeLoop(() => {
    parseJson(texts[i++ % n]);
  });
  const parseExact = timeLoop(() => {
    parseJsonExact(texts[i++ % n]);
  });
  console.log(`parseJson ${(parseFast / jsonParse).toFixed(2)}x JSON.parse (exact reader alone ${(parseExact / jsonParse).toFixed(2)}x)`);
  return {
    fixtures: n,
    parse_json_per_s: parseFast,
    parse_json_exact_per_s: parseExact,
    evaluate_only_per_s: evalOnly,
    decode_evaluate_per_s: decodeEval,
    text_decode_evaluate_per_s: fromText,
    json_parse_per_s: jsonParse,
    json_stringify_per_s: jsonStringify,
  };
}

/** A synthetic view of n records: assertions, evidence both ways, checks of every class. */
export function syntheticView(n) {
  const times = Array.from({ length: 1000 }, (_, k) => new Date(Date.UTC(2026, 0, 1) + k * 60_000).toISOString());
  const source = (k, origin) => ({
    source_id: `s${k}`,
    lineage_id: `l${k % 97}`,
    origin_type: origin,
    origin_locator: `loc:${k}`,
    snapshot_id: `n${k}`,
    content_hash: `h${k}`,
    observed_at: times[k % 1000],
  });
  const view = { proposition_id: 'P-bench', view_id: `v-${n}`, assertions: [], evidence: [], checks: [], conflicts: [], lineage: [], subjects: ['server01'] };
  for (let k = 0; k < n; k++) {
    const t = times[k % 1000];
    switch (k % 4) {
      case 0:
        view.assertions.push({
          assertion_id: `a${k}`,
          text: 'the server runs 1.2',
          asserted_by: 'agent',
          assertion_confidence: 0.7,
          source: source(k, 'turn'),
          asserted_at: t,
        });
        break;
      case 1:
        view.evidence.push({
          evidence_id: `e${k}`,
          polarity: k % 8 === 1 ? 'supports' : 'opposes',
          source: source(k, 'document'),
          content: 'log line',
          observed_at: t,
        });
        break;
      case 2:
        view.checks.push({
          check_id: `k${k}`,
          method: k % 3 ? 'tool_observation' : 'inference',
          scope: 'server01',
          source: source(k, 'tool'),
          observed_at: t,
          result: 'supports',
          subjects: ['SERVER01'],
        });
        break;
      default:
        view.lineage.push({ from_id: `P-bench:${k}`, to_id: `a${k - 3}`, kind: 'derived_from' });
    }
  }
  return view;
}

function runSize(n) {
  const view = syntheticView(n);
  const text = JSON.stringify(view);
  const t0 = performance.now();
  const decoded = decodeView(view);
  const t1 = performance.now();
  const w = warrantNow(decoded, REFERENCE_V2, '2026-02-01T00:00:00Z');
  const t2 = performance.now();
  // Peak so far: the input view, its JSON text and the decoded copy, before the text path runs.
  const peakDecodeEvaluate = process.resourceUsage().maxRSS / 1024;
  const fromText = decodeViewJson(text);
  const t3 = performance.now();
  const j0 = performance.now();
  JSON.parse(text);
  const j1 = performance.now();
  if (fromText.assertions.length !== decoded.assertions.length || !w.warrant) throw new Error('bench sanity');
  return {
    records: n,
    decode_ms: t1 - t0,
    evaluate_ms: t2 - t1,
    decode_evaluate_ms: t2 - t0,
    text_decode_ms: t3 - t2,
    json_parse_ms: j1 - j0,
    peak_rss_decode_evaluate_mb: peakDecodeEvaluate,
    peak_rss_mb: process.resourceUsage().maxRSS / 1024,
    axes: `${w.warrant.acceptance}/${w.warrant.conflict}/${w.warrant.verification}/${w.warrant.currency}/${w.warrant.sufficiency}`,
  };
}

if (process.argv[2] === '--size') {
  process.stdout.write(JSON.stringify(runSize(Number(process.argv[3]))));
  process.exit(0);
}

const machine = {
  cpu: os.cpus()[0]?.model,
  cores: os.cpus().length,
  memory_gb: Math.round(os.totalmem() / 2 ** 30),
  node: process.version,
  platform: `${os.platform()} ${os.release()}`,
};
console.log(`machine: ${machine.cpu}, ${machine.cores} cores, ${machine.memory_gb} GiB, Node ${machine.node}\n`);
const throughput = fixtureThroughput();
const fmt = (x) => Math.round(x).toLocaleString('en-US').padStart(12);
console.log('pack fixtures (52 views), single thread            views/s   vs JSON.parse of the same text');
for (const [label, key] of [
  ['evaluate only', 'evaluate_only_per_s'],
  ['decode (JS value) + evaluate', 'decode_evaluate_per_s'],
  ['decode (JSON text) + evaluate', 'text_decode_evaluate_per_s'],
  ['baseline: JSON.parse', 'json_parse_per_s'],
  ['baseline: JSON.stringify', 'json_stringify_per_s'],
]) {
  console.log(`  ${label.padEnd(44)} ${fmt(throughput[key])}   ${(throughput[key] / throughput.json_parse_per_s).toFixed(2)}x`);
}
console.log(`  target: >= 250,000 evaluate-only views/s (Python reference: ~24,000 on this machine kind)\n`);

const sizes = QUICK ? [10, 1000, 100_000] : [10, 1000, 100_000, 1_000_000];
const scaling = [];
console.log('synthetic views: one child process per size (clean peak RSS)');
console.log('     records   decode ms   eval ms   decode+eval ms   µs/record   peak MB (value path)   text decode ms   JSON.parse ms   peak MB (all)');
for (const n of sizes) {
  const r = JSON.parse(execFileSync(process.execPath, ['--max-old-space-size=4096', `${HERE}kernel.mjs`, '--size', String(n)], { encoding: 'utf8' }));
  scaling.push(r);
  console.log(
    `  ${String(n).padStart(10)} ${r.decode_ms.toFixed(1).padStart(11)} ${r.evaluate_ms.toFixed(1).padStart(9)} ${r.decode_evaluate_ms.toFixed(1).padStart(16)} ${((r.decode_evaluate_ms * 1000) / n).toFixed(2).padStart(11)} ${r.peak_rss_decode_evaluate_mb.toFixed(0).padStart(22)} ${r.text_decode_ms.toFixed(1).padStart(16)} ${r.json_parse_ms.toFixed(1).padStart(15)} ${r.peak_rss_mb.toFixed(0).padStart(13)}`,
  );
}
const big = scaling.at(-1);
const perRecord = scaling.filter((r) => r.records >= 1000).map((r) => r.decode_evaluate_ms / r.records);
console.log(
  `\n  linearity: µs/record from 1k to ${big.records.toLocaleString('en-US')} records varies by ${(Math.max(...perRecord) / Math.min(...perRecord)).toFixed(2)}x`,
);
console.log('  target: 1,000,000 records decoded + evaluated < 2 s, peak < 1.5 GB');

mkdirSync(`${REPO}bench/results`, { recursive: true });
writeFileSync(
  `${REPO}bench/results/core-kernel.json`,
  `${JSON.stringify({ benchmark: 'core-kernel', date: new Date().toISOString(), machine, quick: QUICK, throughput, scaling }, null, 2)}\n`,
);
console.log(`\nwritten: bench/results/core-kernel.json`);
