import { describe, expect, it } from 'vitest';
import { connect, ok } from './harness.js';
import { T, verifiedView } from './views.js';

describe('smoke', () => {
  it('put then warrant', async () => {
    const c = await connect({ ingest: true });
    const put = await ok(c.client, 'ewp_evidence_view_put', { view: verifiedView(), ingest_attestation: true });
    expect(put).toMatchObject({ stored: true, view_id: 'v-ver' });
    const w = await ok(c.client, 'ewp_warrant_now', { proposition_id: 'P-win', evaluated_at: T });
    expect(w.warrant).toMatchObject({ acceptance: 'ACCEPTED', verification: 'EXTERNAL' });
    await c.close();
  });
});
