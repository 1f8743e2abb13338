// The machine a benchmark ran on, and where results go.
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('../../../', import.meta.url));
export const QUICK = process.env.EWP_BENCH_QUICK === '1';

export function machine() {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model.trim() ?? 'unknown',
    cores: cpus.length,
    memory_gb: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
    note: 'shared machine: other engineers run builds and tests concurrently; treat figures as indicative',
  };
}

export function writeResults(name, data) {
  const dir = `${REPO}bench/results/`;
  mkdirSync(dir, { recursive: true });
  const path = `${dir}receipts-${name}.json`;
  writeFileSync(path, `${JSON.stringify({ benchmark: `receipts-${name}`, date: new Date().toISOString(), machine: machine(), quick: QUICK, ...data }, null, 2)}\n`);
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

/** Median wall time in ms over `runs` runs (and the minimum, less sensitive to other load). */
export function medianMs(fn, runs) {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    fn();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
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
