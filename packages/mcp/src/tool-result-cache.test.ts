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
    await cache.text('k', compute);
    const readsAfterFirst = state.reads;
    // A read chunk of pipelined calls: all looked up synchronously.
    const texts = await Promise.all(Array.from({ length: 50 }, () => cache.text('k', compute)));
    expect(texts.every((t) => t === 'r1')).toBe(true);
    expect(state.reads - readsAfterFirst).toBe(1);
    expect(computes).toBe(1);
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
