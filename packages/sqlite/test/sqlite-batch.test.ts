/**
 * putMany's one lookup per batch (`unusedPropositions`): a proposition with nothing stored skips its
 * per-view lookups, one with anything stored (or written earlier in the same batch) does not.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sealView } from '@ewp/ledger';
import { afterAll, describe, expect, it } from 'vitest';
import { SqliteEvidenceStore } from '../src/sqlite-store.js';
import { evidenceRecord, seedView } from '../../ledger/test-support/fault-views.js';

const dir = mkdtempSync(join(tmpdir(), 'ewp-sqlite-batch-'));
let n = 0;
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const fresh = () => new SqliteEvidenceStore(join(dir, `ledger-${++n}.sqlite`));

describe('SqliteEvidenceStore record pages', () => {
  it('refuse a body with a raw newline (the page separator), naming its record, and store nothing', async () => {
    const store = fresh();
    type Row = { kind: 'evidence'; id: string; body: string; identity: string; path: string };
    const backend = (store as unknown as { backend: { write<T>(fn: (w: { insertBindings(pid: string, rows: Row[]): void }) => Promise<T>): Promise<T> } })
      .backend;
    const row = (id: string, body: string): Row => ({ kind: 'evidence', id, body, identity: body, path: '$' });
    for (const rows of [[row('e0', '{"a":1}'), row('e1', '{"a":\n1}'), row('e2', '{"a":2}')], [row('e1', '\n')], [row('e0', '{}'), row('e1', '{}\n')]]) {
      await expect(backend.write(async (w) => w.insertBindings('P', rows))).rejects.toThrow('evidence "e1": a stored body may not contain a raw newline');
    }
    expect((store.db.prepare('SELECT COUNT(*) AS n FROM ewp_records').get() as { n: number }).n).toBe(0);
    await store.close();
  });
});

describe('SqliteEvidenceStore.putMany', () => {
  it('names the unused propositions of a batch: none stored, no record page, duplicates once', async () => {
    const store = fresh();
    await store.put(seedView('P-old'));
    const backend = (store as unknown as { backend: { write<T>(fn: (w: { unusedPropositions(ids: string[]): Set<string> }) => Promise<T>): Promise<T> } })
      .backend;
    const unused = await backend.write(async (w) => w.unusedPropositions(['P-new', 'P-old', 'P-new', 'P-\u00e9', '']));
    expect([...unused].sort()).toEqual(['', 'P-new', 'P-\u00e9']);
    await store.close();
  });

  it('refuses a record id bound to other content by an earlier view of the same batch, and rolls the batch back', async () => {
    const store = fresh();
    const first = { proposition_id: 'P-1', view_id: 'v1', evidence: [evidenceRecord('e0')] };
    const second = { proposition_id: 'P-1', view_id: 'v2', evidence: [{ ...evidenceRecord('e0'), content: 'other content' }] };
    await expect(store.putMany([seedView('P-0'), first, second])).rejects.toMatchObject({ code: 'EWP_REFUSE_IMMUTABLE_RECORD' });
    expect(await store.get('P-0')).toBeUndefined();
    expect(await store.get('P-1')).toBeUndefined();
    expect((await store.verifyChain()).ok).toBe(true);
    await store.close();
  });

  it('refuses a record id bound to other content by an earlier batch, and treats an identical re-put as unchanged', async () => {
    const store = fresh();
    await store.putMany([seedView('P-1'), seedView('P-2')]);
    const again = await store.putMany([sealView(seedView('P-1')), seedView('P-3')]);
    expect(again.map((r) => r.status)).toEqual(['unchanged', 'stored']);
    const clash = { proposition_id: 'P-2', view_id: 'v2', evidence: [{ ...evidenceRecord('e0'), content: 'other content' }] };
    await expect(store.putMany([seedView('P-4'), clash])).rejects.toMatchObject({ code: 'EWP_REFUSE_IMMUTABLE_RECORD' });
    expect(await store.get('P-4')).toBeUndefined();
    // Same id, same view id, other content: refused as a changed snapshot.
    const changed = { ...seedView('P-3'), evidence: [evidenceRecord('e9')] };
    await expect(store.putMany([seedView('P-5'), changed])).rejects.toMatchObject({ code: 'EWP_REFUSE_IMMUTABLE_RECORD' });
    expect(await store.get('P-3')).toEqual(sealView(seedView('P-3')));
    expect(await store.verifyChain()).toMatchObject({ ok: true, length: 6 });
    await store.close();
  });

  it("stores two snapshots of one proposition in one batch, the second reusing the first one's records", async () => {
    const store = fresh();
    const v1 = { proposition_id: 'P-1', view_id: 'v1', evidence: [evidenceRecord('e0')] };
    const v2 = { proposition_id: 'P-1', view_id: 'v2', evidence: [evidenceRecord('e0'), evidenceRecord('e1')] };
    expect((await store.putMany([v1, v2, v1])).map((r) => r.status)).toEqual(['stored', 'stored', 'unchanged']);
    expect(await store.get('P-1', 'v1')).toEqual(sealView(v1));
    expect(await store.get('P-1')).toEqual(sealView(v2));
    expect((await store.verifyChain()).ok).toBe(true);
    await store.close();
  });
});
