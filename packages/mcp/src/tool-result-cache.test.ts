import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { ToolResultCache } from './tool-result-cache.js';

/** A ledger revision the test moves by hand, counting how often it is read. */
function ledger() {
  const state = { revision: 1, reads: 0 };
  const cache = new ToolResultCache(async () => {
    state.reads += 1;
    return String(state.revision);
  });
  return { state, cache };
}

describe('ToolResultCache', () => {
  it('reads the revision once for every lookup started in one run to completion', async () => {
    const { state, cache } = ledger();
    let computes = 0;
    const compute = async () => `r${++computes}`;
    // Kept from its second computation on.
    await cache.text('k', compute);
    await cache.text('k', compute);
    const readsBefore = state.reads;
    // A read chunk of pipelined calls: all looked up synchronously.
    const texts = await Promise.all(Array.from({ length: 50 }, () => cache.text('k', compute)));
    expect(texts.every((t) => t === 'r2')).toBe(true);
    expect(state.reads - readsBefore).toBe(1);
    expect(computes).toBe(2);
  });

  it('keeps a result from the second time its key is computed, not the first', async () => {
    const { cache } = ledger();
    let computes = 0;
    const compute = async () => `r${++computes}`;
    for (let i = 0; i < 100; i += 1) await cache.text(`once-${i}`, compute);
    expect(cache.keptBytes).toBe(0);
    expect(await cache.text('twice', compute)).toBe('r101');
    expect(await cache.text('twice', compute)).toBe('r102');
    expect(await cache.text('twice', compute)).toBe('r102');
    expect(cache.keptBytes).toBeGreaterThan(0);
  });

  it('keeps at most its byte budget, dropping the least recently used', async () => {
    const state = { revision: 1, reads: 0 };
    const budget = 10_000;
    const cache = new ToolResultCache(async () => String(state.revision), budget);
    const text = 'x'.repeat(1_000);
    let computes = 0;
    const compute = async () => {
      computes += 1;
      return text;
    };
    // Each key twice (kept from its second computation), then all again: the earliest are gone.
    for (let i = 0; i < 20; i += 1) {
      await cache.text(`k${i}`, compute);
      await cache.text(`k${i}`, compute);
      expect(cache.keptBytes).toBeLessThanOrEqual(budget);
    }
    expect(computes).toBe(40);
    await cache.text('k19', compute);
    expect(computes).toBe(40);
    await cache.text('k0', compute);
    expect(computes).toBe(41);
    // A result larger than the whole budget is never kept.
    const huge = async () => 'y'.repeat(budget);
    await cache.text('huge', huge);
    await cache.text('huge', huge);
    expect(cache.keptBytes).toBeLessThanOrEqual(budget);
  });

  it('a commit while a result is computed: the result is not served after the commit', async () => {
    const { state, cache } = ledger();
    let computes = 0;
    const slow = async () => {
      computes += 1;
      // Another process commits while this computation reads the ledger.
      state.revision += 1;
      return `r${computes}`;
    };
    await cache.text('k', slow);
    await nextTurn();
    await cache.text('k', slow);
    await nextTurn();
    // Kept under the revision read before it was computed, which the ledger has left: computed afresh.
    expect(await cache.text('k', slow)).toBe('r3');
  });

  it('a commit between runs is seen by the next run', async () => {
    const { state, cache } = ledger();
    let computes = 0;
    const compute = async () => `r${++computes}@${state.revision}`;
    expect(await cache.text('k', compute)).toBe('r1@1');
    await nextTurn();
    state.revision = 2;
    expect(await cache.text('k', compute)).toBe('r2@2');
    await nextTurn();
    expect(await cache.text('k', compute)).toBe('r2@2');
  });
});
