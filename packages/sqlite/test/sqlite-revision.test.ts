/** `revision()`: moves on every commit, from any handle on the file, and on nothing else. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SqliteEvidenceStore } from '../src/sqlite-store.js';
import { seedView } from '../../ledger/test-support/fault-views.js';

const dir = mkdtempSync(join(tmpdir(), 'ewp-sqlite-revision-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('SqliteEvidenceStore.revision', () => {
  it('changes on put, putMany and extend by either handle; reads and an unchanged re-put leave it', async () => {
    const file = join(dir, 'ledger.sqlite');
    const a = new SqliteEvidenceStore(file);
    const b = new SqliteEvidenceStore(file);
    // Each handle's revisions, in turn (the revisions of two handles are not comparable).
    const seen = { a: [await a.revision()], b: [await b.revision()] };
    const expectMoved = async () => {
      for (const [name, store] of [
        ['a', a],
        ['b', b],
      ] as const) {
        const r = await store.revision();
        expect(seen[name]).not.toContain(r);
        seen[name].push(r);
      }
    };
    await a.put(seedView('P-1'));
    await expectMoved();
    await b.putMany([seedView('P-2'), seedView('P-3')]);
    await expectMoved();
    await b.extend('P-1', [{ kind: 'evidence', record: { ...seedView('P-1').evidence[0], evidence_id: 'e1' } }], { newViewId: 'v2' });
    await expectMoved();
    const before = [await a.revision(), await b.revision()];
    await a.get('P-1');
    await a.listPropositions();
    await b.get('P-2');
    expect([await a.revision(), await b.revision()]).toEqual(before);
    await a.close();
    await b.close();
    await expect(a.revision()).rejects.toMatchObject({ code: 'EWP_REFUSE_LEDGER_UNAVAILABLE' });
  });
});
