import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InvalidArgumentError, REFERENCE_V2, warrantNow } from '@ewp/core';
import type { EvidenceStore } from '@ewp/ledger';
import { SqliteEvidenceStore } from '@ewp/sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { evaluate } from './stored-view.js';
import { contractView } from './testing/contract-cases.js';
import { toolContext } from './toolset.js';
import { warrantNowTool } from './tools/warrant-now.js';
import { WarrantTable, warrantTableFor } from './warrant-table.js';

const dirs: string[] = [];
const stores: EvidenceStore[] = [];

afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function ledgerFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ewp-warrant-table-'));
  dirs.push(dir);
  return join(dir, 'ledger.sqlite');
}

function open(file: string): SqliteEvidenceStore {
  const s = new SqliteEvidenceStore(file);
  stores.push(s);
  return s;
}

/** The warrant as the read path computed it before the table: a store read and warrantNow. */
async function direct(store: EvidenceStore, propositionId: string, t: string, viewId?: string) {
  const view = await store.get(propositionId, viewId);
  return warrantNow(view as NonNullable<typeof view>, REFERENCE_V2, t);
}

/** A check of `propositionId` observed at `at`, opposing it: the warrant changes when it is appended. */
function opposingCheck(at: string) {
  return {
    kind: 'check' as const,
    record: {
      check_id: `k-${at}`,
      method: 'tool_observation',
      scope: 'server01',
      observed_at: at,
      result: 'opposes',
      subjects: ['server01'],
      source: {
        source_id: `probe-${at}`,
        lineage_id: 'L-probe',
        origin_type: 'tool',
        origin_locator: 'loc:probe',
        snapshot_id: 'snap:probe',
        content_hash: 'sha256:probe',
        observed_at: at,
        extractor_id: null,
        parent_source_id: null,
      },
    },
  };
}

// The check of contractView is observed at 2026-09-21T18:30Z with a 7-day window.
const TIMES = [
  '2026-09-01T00:00:00Z',
  '2026-09-21T18:29:59.999999Z',
  '2026-09-21T18:30:00Z',
  '2026-09-21T21:00:00+00:00',
  '2026-09-28T18:30:00Z',
  '2026-09-28T18:30:00.000001Z',
  '2027-01-01T00:00:00Z',
];

describe('WarrantTable', () => {
  it('answers as warrantNow over a fresh read, from a lookup while T stays in a kept piece', async () => {
    const store = open(ledgerFile());
    await store.put(contractView('P-a', 'v1'));
    const table = new WarrantTable(store);
    for (const t of TIMES) expect(await table.warrantAt('P-a', undefined, t)).toEqual(await direct(store, 'P-a', t));
    const readsBefore = table.misses;
    // Every T again, and T's between them: no read of the store (the pieces are kept).
    for (const t of [...TIMES, '2026-09-22T00:00:00Z', '2026-09-25T12:00:00.5Z']) {
      expect(await table.warrantAt('P-a', undefined, t)).toEqual(await direct(store, 'P-a', t));
    }
    expect(table.misses).toBe(readsBefore);
    expect(table.hits).toBeGreaterThanOrEqual(TIMES.length + 2);
    // An explicit view id is its own entry, answered the same.
    expect(await table.warrantAt('P-a', 'v1', TIMES[3] as string)).toEqual(await direct(store, 'P-a', TIMES[3] as string, 'v1'));
  });

  it('sees a new snapshot, in this connection or another one on the same file', async () => {
    const file = ledgerFile();
    const store = open(file);
    await store.put(contractView('P-a', 'v1'));
    const table = new WarrantTable(store);
    const t = '2026-09-22T00:00:00Z';
    expect((await table.warrantAt('P-a', undefined, t)).warrant.acceptance).toBe('ACCEPTED');
    await store.extend('P-a', [opposingCheck('2026-09-21T19:00:00Z')], { newViewId: 'v2' });
    const after = await table.warrantAt('P-a', undefined, t);
    expect(after.view_id).toBe('v2');
    expect(after).toEqual(await direct(store, 'P-a', t));
    expect(after.warrant.acceptance).not.toBe('ACCEPTED');
    // Another connection commits: the next answer is from its snapshot.
    const other = open(file);
    await other.extend('P-a', [opposingCheck('2026-09-21T20:00:00Z')], { newViewId: 'v3' });
    const third = await table.warrantAt('P-a', undefined, t);
    expect(third.view_id).toBe('v3');
    expect(third).toEqual(await direct(store, 'P-a', t));
  });

  it('is bounded: least recently used propositions go first', async () => {
    const store = open(ledgerFile());
    await store.putMany(['P-1', 'P-2', 'P-3'].map((p) => contractView(p, 'v')));
    const table = new WarrantTable(store, { maxEntries: 2 });
    const t = '2026-09-22T00:00:00Z';
    await table.warrantAt('P-1', undefined, t);
    await table.warrantAt('P-2', undefined, t);
    await table.warrantAt('P-1', undefined, t);
    await table.warrantAt('P-3', undefined, t);
    expect(table.size).toBe(2);
    const misses = table.misses;
    await table.warrantAt('P-1', undefined, t);
    expect(table.misses).toBe(misses);
    await table.warrantAt('P-2', undefined, t);
    expect(table.misses).toBe(misses + 1);
    expect(() => new WarrantTable(store, { maxEntries: 0 })).toThrow(InvalidArgumentError);
  });

  it('says which kept piece holds at T under a revision, reading nothing', async () => {
    const store = open(ledgerFile());
    await store.put(contractView('P-a', 'v1'));
    const table = new WarrantTable(store);
    const t = '2026-09-22T00:00:00Z';
    const revision = await store.revision();
    expect(table.keptPiece('P-a', undefined, t, revision)).toBeUndefined();
    const w = await table.pieceWarrant('P-a', undefined, t);
    const piece = table.keptPiece('P-a', undefined, t, revision);
    expect(piece?.warrant).toBe(w);
    // Another T of the same piece, the same piece; a T outside it, none; another revision, none.
    expect(table.keptPiece('P-a', undefined, '2026-09-25T00:00:00Z', revision)).toBe(piece);
    expect(table.keptPiece('P-a', undefined, '2027-01-01T00:00:00Z', revision)).toBeUndefined();
    expect(table.keptPiece('P-a', undefined, t, `${revision}x`)).toBeUndefined();
    expect(table.keptPiece('P-a', 'v1', t, revision)).toBeUndefined();
    const misses = table.misses;
    expect(table.hits + misses).toBe(1);
    expect(() => table.keptPiece('P-a', undefined, 'not a time', revision)).toThrow(expect.objectContaining({ code: expect.stringMatching(/^EWP_/) }));
  });

  it('keeps the tool refusals: a bad T on a kept entry, a missing proposition', async () => {
    const store = open(ledgerFile());
    await store.put(contractView('P-a', 'v1'));
    const context = toolContext({ store, ingest: false });
    const call = (args: Record<string, unknown>) =>
      warrantNowTool.run(args, context).then(
        (value) => ({ ok: true, value }),
        (error: { code?: string }) => ({ ok: false, code: error.code }),
      );
    const good = await call({ proposition_id: 'P-a', evaluated_at: '2026-09-22T00:00:00Z' });
    expect(good).toMatchObject({ ok: true, value: { view_id: 'v1', warrant: { acceptance: 'ACCEPTED' } } });
    expect(warrantTableFor(store).size).toBe(1);
    // The refusal the read path gave before the table: evaluate() over a fresh read.
    const view = await store.get('P-a');
    for (const bad of ['not a time', '0000-12-31T23:00:00-05:00', '9999-12-31T23:59:59-01:00']) {
      let expected: string | undefined;
      try {
        evaluate(view as NonNullable<typeof view>, bad);
      } catch (error) {
        expected = (error as { code?: string }).code;
      }
      expect(expected).toMatch(/^EWP_/);
      expect(await call({ proposition_id: 'P-a', evaluated_at: bad })).toEqual({ ok: false, code: expected });
    }
    expect(await call({ proposition_id: 'P-none', evaluated_at: '2026-09-22T00:00:00Z' })).toEqual({ ok: false, code: 'EWP_REFUSE_MISSING_VIEW' });
  });
});
