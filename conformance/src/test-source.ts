import type { SourceRef } from '@ewp/core';

/**
 * A SourceRef for tests: `id` names it, the other fields are derived from it (`L-<id>`, `loc:<id>`,
 * `snap:<id>`, `sha256:<id>`), origin `tool`, observed 2026-09-01. Override any field. The one
 * fixture builder of the project's tests, so no test restates the field list.
 */
export function testSource(id: string, overrides: Partial<SourceRef> = {}): SourceRef {
  return {
    source_id: id,
    lineage_id: `L-${id}`,
    origin_type: 'tool',
    origin_locator: `loc:${id}`,
    snapshot_id: `snap:${id}`,
    content_hash: `sha256:${id}`,
    observed_at: '2026-09-01T00:00:00+00:00',
    extractor_id: null,
    parent_source_id: null,
    ...overrides,
  };
}
