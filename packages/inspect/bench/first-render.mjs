#!/usr/bin/env node
/**
 * Time to first render of `ewp inspect` in headless chromium, over real SQLite ledgers:
 * the proposition list over 10,000 propositions (baseline: the 3-proposition quick-start ledger)
 * and one proposition of 100,000 records (baseline: one of 100 records), and the memory panel of a
 * memory of the evidence layer with 100,000 evidence records (baseline: 100). Each scenario is loaded
 * EWP_BENCH_RUNS times (default 5) in a fresh page; the median is reported. Also the gzipped size
 * of the built page. Writes bench/results/inspect-first-render.json at the repository root.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { MemoryLedger, propositionOf } from '@ewp/memory';
import { SqliteEvidenceStore } from '@ewp/sqlite';
import { chromium } from 'playwright-core';
import { writeResults } from '../../../bench/machine.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '../../..');
const RUNS = Number(process.env.EWP_BENCH_RUNS ?? 5);
const NOW = new Date('2026-09-23T12:00:00Z');

function chromiumPath() {
  if (existsSync('/usr/bin/chromium')) return '/usr/bin/chromium';
  try {
    return execFileSync('sh', ['-c', 'command -v chromium'], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

const source = (id, origin = 'tool') => ({
  source_id: id,
  lineage_id: `L-${id}`,
  origin_type: origin,
  origin_locator: `loc:${id}`,
  snapshot_id: `snap:${id}`,
  content_hash: `sha256:${id}`,
  observed_at: '2026-09-01T00:00:00Z',
});

/** A small, realistic view: one assertion, one piece of evidence, one external check. */
function smallView(i) {
  const p = `P-${String(i).padStart(6, '0')}`;
  return {
    proposition_id: p,
    view_id: `v-${i}`,
    subjects: ['host-1'],
    assertions: [
      {
        assertion_id: `a-${i}`,
        text: `Service ${i} listens on port ${1000 + (i % 5000)}.`,
        asserted_by: 'agent',
        assertion_confidence: 0.8,
        asserted_at: '2026-09-01T00:00:00Z',
        source: source(`chat-${i}`, 'turn'),
      },
    ],
    evidence: [
      {
        evidence_id: `e-${i}`,
        polarity: 'supports',
        content: `netstat shows port ${1000 + (i % 5000)}`,
        observed_at: '2026-09-01T00:00:00Z',
        source: source(`net-${i}`),
      },
    ],
    checks: [
      {
        check_id: `k-${i}`,
        method: 'tool_observation',
        scope: 'netstat',
        subjects: ['host-1'],
        result: 'supports',
        observed_at: '2026-09-20T00:00:00Z',
        source: source(`tool-${i}`),
      },
    ],
  };
}

/** One proposition with `n` records: assertions, evidence and checks in equal parts. */
function bigView(n) {
  const third = Math.floor(n / 3);
  const rest = n - 2 * third;
  return {
    proposition_id: 'P-big',
    view_id: `big-${n}`,
    subjects: ['host-1'],
    assertions: Array.from({ length: third }, (_, i) => ({
      assertion_id: `a-${i}`,
      text: `claim ${i}`,
      asserted_by: 'agent',
      assertion_confidence: 0.5,
      asserted_at: '2026-09-01T00:00:00Z',
      source: source(`s-a-${i % 500}`, 'turn'),
    })),
    evidence: Array.from({ length: third }, (_, i) => ({
      evidence_id: `e-${i}`,
      polarity: 'supports',
      content: `observation ${i}`,
      observed_at: '2026-09-01T00:00:00Z',
      source: source(`s-e-${i % 500}`),
    })),
    checks: Array.from({ length: rest }, (_, i) => ({
      check_id: `k-${i}`,
      method: 'tool_observation',
      scope: 'probe',
      subjects: ['host-1'],
      result: 'supports',
      observed_at: '2026-09-20T00:00:00Z',
      source: source(`s-k-${i % 500}`),
    })),
  };
}

async function ledger(views) {
  const file = join(mkdtempSync(join(tmpdir(), 'ewp-inspect-bench-')), 'ewp.sqlite');
  const store = new SqliteEvidenceStore(file);
  for (let i = 0; i < views.length; i += 500) await store.putMany(views.slice(i, i + 500));
  await store.close();
  return file;
}

/**
 * A ledger holding one memory of the evidence layer (stored by MemoryLedger) whose proposition has
 * `n` more supporting evidence records, appended in batches (linking 100,000 observations one by
 * one would measure the writer, not the page). Returns the file and the memory's proposition.
 */
async function memoryLedger(n) {
  const file = join(mkdtempSync(join(tmpdir(), 'ewp-inspect-bench-')), 'ewp.sqlite');
  const store = new SqliteEvidenceStore(file);
  const memory = new MemoryLedger(store, { now: () => '2026-09-01T00:00:00Z' });
  const { hash } = await memory.store({ text: 'The nightly backup fails because the NFS mount is slow', class: 'hypothesis' });
  const pid = propositionOf(hash);
  for (let i = 0; i < n; i += 10_000) {
    const records = [];
    for (let j = i; j < Math.min(n, i + 10_000); j++) {
      records.push({
        kind: 'evidence',
        record: {
          evidence_id: `e-${j}`,
          proposition_id: pid,
          polarity: 'supports',
          content: `observation ${j}`,
          observed_at: '2026-09-01T00:00:00Z',
          source: source(`s-${j % 500}`),
        },
      });
    }
    await store.extend(pid, records);
  }
  memory.close();
  await store.close();
  return { file, pid };
}

/** `serveInspector` over the ledger in its own process, as `ewp inspect` runs it. */
function serveApart(file) {
  const child = spawn(process.execPath, [join(here, 'serve-ledger.mjs'), file, NOW.toISOString()], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.on('error', reject);
    child.stdout.on('data', (chunk) => {
      out += chunk;
      if (out.includes('\n')) resolve({ url: out.trim(), stop: () => new Promise((done) => child.once('exit', done).kill('SIGTERM')) });
    });
  });
}

/** Median ms from navigation to `selector` attached, over RUNS fresh pages. */
async function firstRender(browser, url, selector) {
  const times = [];
  for (let r = 0; r < RUNS; r++) {
    const page = await browser.newPage();
    const start = performance.now();
    await page.goto(url);
    await page.waitForSelector(selector, { timeout: 120_000 });
    times.push(performance.now() - start);
    await page.close();
  }
  times.sort((a, b) => a - b);
  return { median_ms: times[Math.floor(times.length / 2)], runs_ms: times.map((t) => Math.round(t)) };
}

async function scenario(browser, name, views, hash, selector, file) {
  const server = await serveApart(file ?? (await ledger(views)));
  try {
    const result = await firstRender(browser, `${server.url}${hash}`, selector);
    console.log(`${name}: median ${result.median_ms.toFixed(0)} ms (${result.runs_ms.join(', ')})`);
    return { name, ...result };
  } finally {
    await server.stop();
  }
}

function bundleSize() {
  const assets = join(here, '../dist/web/assets');
  let raw = 0;
  let gzip = 0;
  const files = readdirSync(assets).filter((f) => f.endsWith('.js') || f.endsWith('.css'));
  for (const f of files) {
    const bytes = readFileSync(join(assets, f));
    raw += bytes.length;
    gzip += gzipSync(bytes, { level: 9 }).length;
  }
  return { files, raw_bytes: raw, gzip_bytes: gzip };
}

const path = chromiumPath();
if (path === undefined) {
  console.error('inspect bench: no chromium (apt-get install -y chromium); nothing measured');
  process.exit(1);
}
const browser = await chromium.launch({
  executablePath: path,
  args: ['--no-sandbox', '--headless', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});
const listRow = 'a.row';
const axes = '[data-testid="axes"] [data-axis]';
const quickstart = JSON.parse(readFileSync(join(root, 'conformance/pack/examples/quickstart.json'), 'utf8')).views;
const list3 = await scenario(browser, 'list, 3 propositions (baseline)', quickstart, '', listRow);
const list10k = await scenario(
  browser,
  'list, 10,000 propositions',
  Array.from({ length: 10_000 }, (_, i) => smallView(i)),
  '',
  listRow,
);
const big100 = await scenario(browser, 'proposition, 100 records (baseline)', [bigView(100)], '#/p/P-big', axes);
const big100k = await scenario(browser, 'proposition, 100,000 records', [bigView(100_000)], '#/p/P-big', axes);
// The memory panel is asked for once the proposition is shown; measured to its confidence figure.
const confidence = '[data-testid="memory-confidence-value"]';
const memory100 = await memoryLedger(100);
const mem100 = await scenario(browser, 'memory panel, 100 records (baseline)', [], `#/p/${encodeURIComponent(memory100.pid)}`, confidence, memory100.file);
const memory100k = await memoryLedger(100_000);
const mem100k = await scenario(browser, 'memory panel, 100,000 records', [], `#/p/${encodeURIComponent(memory100k.pid)}`, confidence, memory100k.file);
await browser.close();

const bundle = bundleSize();
console.log(`bundle: ${bundle.raw_bytes} bytes, ${bundle.gzip_bytes} gzipped`);
const resultsFile = writeResults('inspect-first-render', {
  runs_per_scenario: RUNS,
  measure:
    "ms from page.goto() to the first list row / the first axis badge / the memory panel's confidence attached, headless Debian chromium, server in its own process over a read-only SQLite ledger",
  goal_ms: 2000,
  scenarios: [
    { ...list3, ratio_to_baseline: 1 },
    { ...list10k, baseline: list3.name, ratio_to_baseline: list10k.median_ms / list3.median_ms },
    { ...big100, ratio_to_baseline: 1 },
    { ...big100k, baseline: big100.name, ratio_to_baseline: big100k.median_ms / big100.median_ms },
    { ...mem100, ratio_to_baseline: 1 },
    { ...mem100k, baseline: mem100.name, ratio_to_baseline: mem100k.median_ms / mem100.median_ms },
  ],
  bundle,
});
console.log(`wrote ${resultsFile}`);
