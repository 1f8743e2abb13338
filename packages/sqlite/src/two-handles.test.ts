import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SqliteEvidenceStore } from './sqlite-store.js';

const dir = mkdtempSync(join(tmpdir(), 'ewp-two-handles-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const fixture = JSON.parse(readFileSync(new URL('../../../conformance/pack/fixtures/08-verified-now.json', import.meta.url), 'utf8'));
const viewOf = (pid: string) => ({
  ...fixture,
  proposition_id: pid,
  view_id: `v-${pid}`,
  assertions: fixture.assertions.map((a: object) => ({ ...a, proposition_id: pid })),
  evidence: fixture.evidence.map((e: object) => ({ ...e, proposition_id: pid })),
});

describe('two handles on one SQLite file in one process', () => {
  it('write at the same time: a handle waiting for the write lock yields, so the holder finishes and both commit', async () => {
    const path = join(dir, 'ledger.sqlite');
    // A short busy timeout: a waiter that blocked the event loop would hold the lock's owner up until
    // it gave up, and one write would fail with `busy`.
    const a = new SqliteEvidenceStore(path, { busyTimeoutMs: 2000 });
    const b = new SqliteEvidenceStore(path, { busyTimeoutMs: 2000 });
    try {
      const writes = [];
      for (let i = 0; i < 20; i += 1) writes.push(a.put(viewOf(`P-a-${i}`)), b.put(viewOf(`P-b-${i}`)));
      const results = await Promise.allSettled(writes);
      expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
      expect(await a.listPropositions({ limit: 100 })).toHaveLength(40);
      expect((await b.verifyChain()).ok).toBe(true);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
