// Per-call latency of a gated call against the same call ungated, sampled in turn (so load from other
// processes hits both alike): p50 and p99 of each, and the overhead as their difference.

/** Percentile `p` (0..100) of sorted samples, nearest rank. */
export function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/**
 * Time `plain()` and `gated()` `n` times each, alternating, after `warmup` calls of each.
 * Returns milliseconds: p50 and p99 of both and of their difference.
 */
export async function overhead(plain, gated, n, warmup = 20) {
  for (let i = 0; i < warmup; i++) {
    await plain();
    await gated();
  }
  const a = [];
  const b = [];
  for (let i = 0; i < n; i++) {
    let t = performance.now();
    await plain();
    a.push(performance.now() - t);
    t = performance.now();
    await gated();
    b.push(performance.now() - t);
  }
  a.sort((x, y) => x - y);
  b.sort((x, y) => x - y);
  const round = (x) => Math.round(x * 1000) / 1000;
  const row = {
    samples: n,
    ungated_p50_ms: round(percentile(a, 50)),
    ungated_p99_ms: round(percentile(a, 99)),
    gated_p50_ms: round(percentile(b, 50)),
    gated_p99_ms: round(percentile(b, 99)),
  };
  return { ...row, overhead_p50_ms: round(row.gated_p50_ms - row.ungated_p50_ms), overhead_p99_ms: round(row.gated_p99_ms - row.ungated_p99_ms) };
}
