// Shared by the benchmarks of @ewp/canonical and @ewp/receipts: the machine a benchmark ran on,
// where results go, and the timing helpers.
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('../', import.meta.url));
export const QUICK = process.env.EWP_BENCH_QUICK === '1';

export function machine() {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model.trim() ?? 'unknown',
    cores: cpus.length,
    memory_gb: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
    load_average_1_5_15: load(),
    note: 'shared machine: other engineers run builds and tests concurrently; treat figures as indicative',
  };
}

/** Writes `<repo>/bench/results/<name>.json` (e.g. `canonical`, `receipts-recovery`). */
export function writeResults(name, data) {
  const dir = `${REPO}bench/results/`;
  mkdirSync(dir, { recursive: true });
  const path = `${dir}${name}.json`;
  writeFileSync(path, `${JSON.stringify({ benchmark: name, date: new Date().toISOString(), machine: machine(), quick: QUICK, ...data }, null, 2)}\n`);
  return path;
}

/**
 * Calls per second of fn: warm-up, then 5 rounds of at least minMs/5 each; the best round is kept,
 * because on this shared 2-core machine other processes only ever make a round slower.
 */
export function rate(fn, minMs = QUICK ? 250 : 1500) {
  for (let i = 0; i < 10; i++) fn();
  let best = 0;
  for (let round = 0; round < 5; round++) {
    let n = 0;
    const start = performance.now();
    let elapsed = 0;
    while (elapsed < minMs / 5) {
      fn();
      n++;
      elapsed = performance.now() - start;
    }
    best = Math.max(best, (n * 1000) / elapsed);
  }
  return best;
}

/** Median wall time in ms over `runs` runs. */
export function medianMs(fn, runs) {
  return timed(fn, runs).median_ms;
}

/**
 * Wall time (median and minimum over `runs`) and process CPU time (median; user + system, all
 * threads including GC) of fn. On an oversubscribed machine the CPU time is the steadier figure.
 */
export function timed(fn, runs) {
  const walls = [];
  const cpus = [];
  for (let i = 0; i < runs; i++) {
    const c = process.cpuUsage();
    const t = performance.now();
    fn();
    walls.push(performance.now() - t);
    const d = process.cpuUsage(c);
    cpus.push((d.user + d.system) / 1000);
  }
  walls.sort((a, b) => a - b);
  cpus.sort((a, b) => a - b);
  return { median_ms: walls[Math.floor(runs / 2)], min_ms: walls[0], cpu_median_ms: cpus[Math.floor(runs / 2)] };
}

/** The load average when a benchmark ran (other engineers share the machine). */
export function load() {
  return os.loadavg().map((x) => Math.round(x * 100) / 100);
}

export function table(rows, columns) {
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => String(r[c] ?? '').length)));
  const line = (cells) => cells.map((c, i) => String(c ?? '').padStart(widths[i])).join('  ');
  return [line(columns), line(widths.map((w) => '-'.repeat(w))), ...rows.map((r) => line(columns.map((c) => r[c])))].join('\n');
}

export const fmt = (x, d = 1) => (typeof x === 'number' ? x.toFixed(d) : x);

/**
 * Interleaved rates of several functions on the same data: rounds alternate between them so load
 * from other processes hits all of them alike; the best round of each is kept.
 */
export function rates(fns, minMs = QUICK ? 250 : 1500) {
  const best = {};
  for (const k of Object.keys(fns)) {
    for (let i = 0; i < 5; i++) fns[k]();
    best[k] = 0;
  }
  const rounds = 6;
  for (let r = 0; r < rounds; r++) {
    for (const k of Object.keys(fns)) {
      const start = performance.now();
      let n = 0;
      let elapsed = 0;
      while (elapsed < minMs / rounds) {
        fns[k]();
        n++;
        elapsed = performance.now() - start;
      }
      best[k] = Math.max(best[k], (n * 1000) / elapsed);
    }
  }
  return best;
}

/**
 * Ratio of fn's speed to baseline's, measured in pairs: each round times baseline then fn for a short
 * window, back to back, and the median of the per-round ratios is kept. This machine switches between
 * a fast and a slow speed every few seconds; a pair almost always falls inside one speed, so the ratio
 * stays honest where separate best-of figures can pair one function's fast round with the other's slow one.
 */
export function pairedRatio(fn, baseline, rounds = QUICK ? 9 : 25, windowMs = 80) {
  for (let i = 0; i < 5; i++) {
    fn();
    baseline();
  }
  const once = (f) => {
    const start = performance.now();
    let n = 0;
    let elapsed = 0;
    while (elapsed < windowMs) {
      f();
      n++;
      elapsed = performance.now() - start;
    }
    return n / elapsed;
  };
  const ratios = [];
  for (let r = 0; r < rounds; r++) ratios.push(once(fn) / once(baseline));
  ratios.sort((a, b) => a - b);
  return { median: ratios[Math.floor(rounds / 2)], min: ratios[0], max: ratios[rounds - 1] };
}
