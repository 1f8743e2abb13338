import { describe, expect, it } from 'vitest';
import { buildChainEntries, EMPTY_ANCHOR, parseChainHead, verifyChain } from './hash-chain.js';

const events = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => ({ type: 'snapshot_committed', n: from + i }));

describe('a head kept elsewhere', () => {
  const first = buildChainEntries(EMPTY_ANCHOR, events(0, 5));
  const rest = buildChainEntries(first.anchor, events(5, 8));
  const log = [...first.entries, ...rest.entries];

  it('verifies when the log reaches it with the same hash, at its end or further on', () => {
    expect(verifyChain(log, rest.anchor, { expectHead: first.anchor })).toMatchObject({ ok: true, length: 8 });
    expect(verifyChain(log, rest.anchor, { expectHead: rest.anchor })).toMatchObject({ ok: true, length: 8 });
  });

  it('fails when the log is shorter than the kept head, even with a rewritten anchor', () => {
    const cut = first.entries.slice(0, 3);
    const anchorOfCut = buildChainEntries(EMPTY_ANCHOR, events(0, 3)).anchor;
    expect(verifyChain(cut, anchorOfCut)).toMatchObject({ ok: true });
    expect(verifyChain(cut, anchorOfCut, { expectHead: first.anchor })).toMatchObject({ ok: false, reason: 'shorter_than_expected_head', firstBadIndex: 3 });
  });

  it('fails when the log was rewritten consistently (another history of the same length)', () => {
    const other = buildChainEntries(EMPTY_ANCHOR, events(100, 108));
    expect(verifyChain(other.entries, other.anchor)).toMatchObject({ ok: true });
    expect(verifyChain(other.entries, other.anchor, { expectHead: first.anchor })).toMatchObject({
      ok: false,
      reason: 'expected_head_mismatch',
      firstBadIndex: 4,
    });
  });

  it('reads LENGTH:HASH and refuses anything else', () => {
    expect(parseChainHead(`5:${first.anchor.head_hash}`)).toEqual(first.anchor);
    for (const bad of ['5', `x:${first.anchor.head_hash}`, `5:${first.anchor.head_hash.toUpperCase()}`, `-1:${first.anchor.head_hash}`, '5:abc']) {
      expect(parseChainHead(bad), bad).toBeUndefined();
    }
  });
});
