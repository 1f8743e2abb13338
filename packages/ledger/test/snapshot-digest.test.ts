/** The snapshot and record digests hash the same bytes whether joined in one shot (small) or fed in parts (large). */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { contentDigest, recordsDigest, sourceText } from '../src/snapshot-layout.js';
import { source } from '../test-support/fault-views.js';

const sha = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

describe('snapshot digests', () => {
  for (const parts of [0, 1, 2, 31, 32, 33, 63, 64, 65, 500]) {
    it(`contentDigest and recordsDigest of ${parts} parts`, () => {
      const bodies = Array.from({ length: parts }, (_, i) => `{"id":"r${i}","t":"\u00e9\u{1f600}"}`);
      const sources = bodies.slice(0, Math.ceil(parts / 2)).map((b) => `s${b}`);
      expect(contentDigest('{"h":1}', '[]', bodies, sources)).toBe(sha(`{"h":1}\n[]\n${bodies.join(',')}\n${sources.join(',')}`));
      expect(recordsDigest(bodies)).toBe(sha(bodies.join('\n')));
      expect(recordsDigest(new Set(bodies))).toBe(sha(bodies.join('\n')));
    });
  }

  it('sourceText is the JSON of the source in its stored field order', () => {
    const s = { ...source('s "1"\n'), extractor_id: 'x\u2028', parent_source_id: null };
    const { source_id, lineage_id, origin_type, origin_locator, snapshot_id, content_hash, observed_at, extractor_id, parent_source_id } = s;
    expect(sourceText(s)).toBe(
      JSON.stringify({ source_id, lineage_id, origin_type, origin_locator, snapshot_id, content_hash, observed_at, extractor_id, parent_source_id }),
    );
  });
});
