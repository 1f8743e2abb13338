// Differential: the auto-context (and the persona checkout) with its confirmed part from the index (confirmed-index.ts) is the one a
// judgement of every memory gives (autoContextByScan, over its own reader of the same file), over generated
// histories written by two processes' stores to one SQLite ledger, at T anywhere: at and beside record
// times, at whole 30-day periods of age, before and after future-dated records, in any order.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEvidenceStore } from '@ewp/sqlite';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { EPISTEMIC_CLASSES } from './epistemic-class.js';
import { MemoryError } from './errors.js';
import { checkoutByScan } from './memory-checkout.js';
import { makeLayer } from './memory-layer.js';
import { MemoryLedger } from './memory-ledger.js';
import { autoContextByScan } from './memory-recall.js';

const dir = mkdtempSync(join(tmpdir(), 'ewp-memory-confirmed-'));
let n = 0;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const DAY = 86_400_000;
const BASE = Date.parse('2026-01-01T00:00:00Z');
/** Record times: days from BASE (some after every T asked before them: future-dated). */
const RECORD_DAYS = [0, 1, 29, 31, 60, 95, 400];
const iso = (ms: number) => new Date(ms).toISOString();

/** T to ask at: record times, a microsecond either side, whole 30-day periods after them, far out. */
function askTimes(): string[] {
  const out = new Set<string>();
  for (const d of RECORD_DAYS) {
    const t = BASE + d * DAY;
    out.add(iso(t));
    out.add(iso(t - 1).replace('Z', '999Z'));
    out.add(iso(t).replace('.000Z', '.000001Z'));
    for (const k of [1, 2, 3, 12]) out.add(iso(t + k * 30 * DAY));
  }
  out.add('2020-01-01T00:00:00Z');
  out.add('2040-01-01T00:00:00Z');
  return [...out];
}
const TIMES = askTimes();

const op = fc.oneof(
  fc.record({
    kind: fc.constant('store' as const),
    writer: fc.integer({ min: 0, max: 1 }),
    cls: fc.constantFrom(...EPISTEMIC_CLASSES),
    project: fc.constantFrom(null, 'p'),
    source: fc.constantFrom('a', 'b', 'c', 'd'),
    day: fc.constantFrom(...RECORD_DAYS),
    supports: fc.array(fc.nat(), { maxLength: 2 }),
  }),
  fc.record({ kind: fc.constant('link' as const), writer: fc.integer({ min: 0, max: 1 }), from: fc.nat(), to: fc.nat(), refute: fc.boolean() }),
  fc.record({ kind: fc.constant('reclass' as const), writer: fc.integer({ min: 0, max: 1 }), memory: fc.nat(), to: fc.constantFrom(...EPISTEMIC_CLASSES) }),
);

describe('confirmed index', () => {
  it('gives the auto-context a judgement of every memory gives, over histories of two writers, at any T', async () => {
    let compared = 0;
    let confirmedRows = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(op, { minLength: 1, maxLength: 14 }),
        fc.array(fc.array(fc.constantFrom(...TIMES), { minLength: 1, maxLength: 4 }), { minLength: 14, maxLength: 14 }),
        async (ops, asks) => {
          const path = join(dir, `ledger-${++n}.sqlite`);
          const stores = [new SqliteEvidenceStore(path), new SqliteEvidenceStore(path), new SqliteEvidenceStore(path)];
          try {
            // Ledger 0 reads through its index; ledger 1 is the other process; the scan reads through its own layer.
            // A threshold one independent support reaches and two periods of age undo: membership moves with T.
            const options = { now: () => iso(BASE), config: { confirmed_confidence: 40 } };
            const ledgers = [0, 1].map((i) => new MemoryLedger(stores[i]!, options));
            const reference = makeLayer(stores[2]!, options);
            const hashes: string[] = [];
            const pick = (i: number) => hashes[i % hashes.length]!;
            for (const [step, o] of ops.entries()) {
              const w = ledgers[o.writer]!;
              try {
                if (o.kind === 'store') {
                  const supports = hashes.length === 0 ? [] : [...new Set(o.supports.map(pick))];
                  const r = await w.store({
                    text: `memory ${step} of ${o.source}`,
                    class: o.cls,
                    project: o.project,
                    source: o.source,
                    observed_at: iso(BASE + o.day * DAY),
                    supports,
                  });
                  hashes.push(r.hash);
                } else if (hashes.length > 0 && o.kind === 'link') {
                  if (o.refute) await w.refute(pick(o.from), pick(o.to));
                  else await w.link(pick(o.from), pick(o.to));
                } else if (hashes.length > 0 && o.kind === 'reclass') {
                  await w.reclass(pick(o.memory), o.to);
                }
              } catch (e) {
                // A refused write (a class that may not support, another project, an echo) is part of a history too.
                if (!(e instanceof MemoryError)) throw e;
              }
              for (const at of asks[step]!) {
                for (const project of [null, 'p']) {
                  const indexed = await ledgers[0]!.autoContext({ project, at, limit: 10_000, maxBytes: 1_000_000 });
                  const scanned = await autoContextByScan(reference, { project, at, limit: 10_000, maxBytes: 1_000_000 });
                  expect(indexed, `${project} at ${at}`).toEqual(scanned);
                  // The bounded context too (its omitted count reads the whole confirmed list).
                  expect(await ledgers[0]!.autoContext({ project, at, limit: 2 })).toEqual(await autoContextByScan(reference, { project, at, limit: 2 }));
                  // The persona checkout reads the same index (confirmed or promoted memories only).
                  expect(await ledgers[0]!.checkout({ project, at })).toBe(await checkoutByScan(reference, { project, at }));
                  compared += 1;
                  confirmedRows += indexed.confirmed.rows.length;
                }
              }
            }
          } finally {
            for (const s of stores) await s.close();
          }
        },
      ),
      { numRuns: 30 },
    );
    // The histories confirmed memories at some T: the comparison is not of empty lists only.
    expect(compared).toBeGreaterThan(100);
    expect(confirmedRows).toBeGreaterThan(0);
  }, 240_000);
});
