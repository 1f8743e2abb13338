import { decodeView, ENDOGENOUS_ORIGINS, TRUSTED_ORIGINS } from '@ewp/core';
import { describe, expect, it } from 'vitest';
import { demoteInlineView, originTrust } from './origin-trust.js';

describe('originTrust', () => {
  it('names every policy origin, and what demoteInlineView makes of a trusted one', () => {
    for (const o of TRUSTED_ORIGINS) expect(originTrust(o)).toBe('trusted');
    for (const o of ENDOGENOUS_ORIGINS) expect(originTrust(o)).toBe('endogenous');
    const source = {
      source_id: 's',
      lineage_id: 'L',
      origin_type: 'tool',
      origin_locator: 'l',
      snapshot_id: 's',
      content_hash: 'h',
      observed_at: '2026-01-01T00:00:00Z',
    };
    const view = decodeView({
      proposition_id: 'P',
      view_id: 'v',
      checks: [{ check_id: 'k', method: 'tool_observation', scope: 's', source, observed_at: '2026-01-01T00:00:00Z', result: 'supports' }],
    });
    const demoted = demoteInlineView(view).view.checks[0]?.source.origin_type as string;
    expect(originTrust(demoted)).toBe('inline-demoted');
    // Only a demoted trusted origin counts as demoted; anything else is plainly untrusted.
    expect(originTrust('inline:turn')).toBe('untrusted');
    expect(originTrust('episode')).toBe('untrusted');
    expect(originTrust('Tool')).toBe('untrusted');
  });
});
