/**
 * How large the salience side file grows under a burst of recalls: `EWP_GROWTH_RECALLS` recalls
 * (default 50,000) over `EWP_GROWTH_MEMORIES` memories (default 300), each query matching a few of them,
 * with the event loop let run between bursts of 250 recalls so the store's batched write goes out after
 * each burst (as a server answering requests does). Prints one JSON line: the file's lines and bytes at
 * its largest while the store was open, at the end while still open, and after close.
 *
 * Run: `node packages/memory/bench/run-salience-growth.mjs`.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryEvidenceStore } from '@ewp/ledger';
import { MemoryLedger } from '../src/memory-ledger.js';
import { JsonlSalienceStore, SALIENCE_FLUSH_DELAY_MS } from '../src/salience-file.js';

const MEMORIES = Number(process.env.EWP_GROWTH_MEMORIES ?? 300);
const RECALLS = Number(process.env.EWP_GROWTH_RECALLS ?? 50_000);
const BURST = 250;
const dir = mkdtempSync(join(tmpdir(), 'ewp-salience-growth-'));
const path = join(dir, 'ledger.sqlite.salience.jsonl');

function size(): { lines: number; bytes: number } {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (stat === undefined) return { lines: 0, bytes: 0 };
  return { lines: readFileSync(path, 'utf8').split('\n').length - 1, bytes: stat.size };
}

try {
  const memory = new MemoryLedger(new MemoryEvidenceStore(), { salience: new JsonlSalienceStore(path) });
  for (let i = 0; i < MEMORIES; i += 1) {
    await memory.store({
      text: `tok${i} sensor ${i % 23} reads ${(i * 7919) % 1000} units at station ${i % 13}`,
      class: 'observation',
      source: `sensor-${i % 23}`,
    });
  }
  let largest = { lines: 0, bytes: 0 };
  const started = performance.now();
  for (let r = 0; r < RECALLS; r += 1) {
    await memory.recall({ query: `sensor ${r % 23} station ${r % 13}`, limit: 5 });
    if ((r + 1) % BURST === 0) {
      await new Promise((resolve) => setTimeout(resolve, SALIENCE_FLUSH_DELAY_MS + 5));
      const now = size();
      if (now.bytes > largest.bytes) largest = now;
    }
  }
  const seconds = (performance.now() - started) / 1000;
  const recalled = [...memory.salience.entries()].length;
  const open = size();
  memory.close();
  const closed = size();
  process.stdout.write(
    `${JSON.stringify({ memories: MEMORIES, recalls: RECALLS, memories_recalled: recalled, seconds: Number(seconds.toFixed(1)), largest_while_open: largest, end_while_open: open, after_close: closed })}\n`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
