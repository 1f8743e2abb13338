import { SOURCE_REF_FIELDS, type SourceRef, sourceRefOf } from '@ewp/core';
import { expect, it } from 'vitest';
import { sourceText } from './snapshot-layout.js';

const source: SourceRef = {
  source_id: 's-1',
  lineage_id: 'L-1',
  origin_type: 'tool',
  origin_locator: 'psql -c "select 1"',
  snapshot_id: 'snap-1',
  content_hash: 'sha256:ab',
  observed_at: '2026-09-20T09:00:00Z',
  extractor_id: null,
  parent_source_id: 'p\u00e9re',
};

it("stores a source as exactly core's SourceRef fields, in their order (the template restates no field)", () => {
  const stored = JSON.parse(sourceText(source)) as Record<string, unknown>;
  expect(Object.keys(stored)).toEqual([...SOURCE_REF_FIELDS]);
  expect(stored).toEqual(sourceRefOf(source));
  expect(sourceText(source)).toBe(JSON.stringify(sourceRefOf(source)));
});
