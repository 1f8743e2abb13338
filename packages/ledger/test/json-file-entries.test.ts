/**
 * Ledger entries in the JSON-file store: a ledger made before entries (an anchor without
 * `entry_bytes`) opens and takes entries; entry rows a killed writer left past the anchor are cut by
 * the next writer, and anything else past it is refused as damage.
 */
import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { JsonFileEvidenceStore } from '../src/json-file-store.js';
import { seedView } from '../test-support/fault-views.js';

const dir = mkdtempSync(join(tmpdir(), 'ewp-json-entries-'));
let n = 0;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const anchorOf = (root: string) => JSON.parse(readFileSync(join(root, 'anchor.json'), 'utf8')) as Record<string, unknown>;
const note = (id: string) => ({ kind: 'memory.store', id, subjects: ['P-1'], body: { id } });

async function ledgerWithSnapshot(): Promise<string> {
  const root = join(dir, `l${++n}`);
  const store = new JsonFileEvidenceStore(root);
  await store.put(seedView('P-1'));
  await store.close();
  return root;
}

describe('JSON-file ledger entries', () => {
  it('a ledger without entries keeps its anchor as before, and gains entry_bytes with its first entry', async () => {
    const root = await ledgerWithSnapshot();
    expect(Object.keys(anchorOf(root)).sort()).toEqual(['bytes', 'head_hash', 'length', 'snapshots']);
    const store = new JsonFileEvidenceStore(root);
    expect(await store.readEntries()).toEqual([]);
    expect(await store.appendEntries([note('m1')])).toEqual([{ status: 'stored', kind: 'memory.store', id: 'm1', chain_index: 2 }]);
    expect(anchorOf(root).entry_bytes).toBe(statSync(join(root, 'entries.jsonl')).size);
    expect(await store.verifyChain()).toMatchObject({ ok: true, length: 3 });
    await store.close();
  });

  it('cuts the entry rows a killed writer left past the anchor, and never reads them', async () => {
    const root = await ledgerWithSnapshot();
    const store = new JsonFileEvidenceStore(root);
    await store.appendEntries([note('m1')]);
    const committed = statSync(join(root, 'entries.jsonl')).size;
    // A writer killed after appending its rows, before its anchor: rows of events past the anchor.
    appendFileSync(
      join(root, 'entries.jsonl'),
      `${JSON.stringify({ chain_index: 3, kind: 'memory.store', id: 'ghost', subjects: '[]', body: '{}', committed_at: 'x' })}\n{"chain_`,
    );
    expect((await store.readEntries()).map((e) => e.id)).toEqual(['m1']);
    expect((await store.verifyChain()).ok).toBe(true);
    await store.appendEntries([note('m2')]);
    expect((await store.readEntries()).map((e) => e.id)).toEqual(['m1', 'm2']);
    expect(statSync(join(root, 'entries.jsonl')).size).toBeGreaterThan(committed);
    expect(readFileSync(join(root, 'entries.jsonl'), 'utf8')).not.toContain('ghost');
    expect(await store.verifyChain()).toMatchObject({ ok: true, length: 4 });
    await store.close();
  });

  it('refuses to write when what lies past the anchor is not an uncommitted row (damage is never cut)', async () => {
    const root = await ledgerWithSnapshot();
    const store = new JsonFileEvidenceStore(root);
    await store.appendEntries([note('m1')]);
    appendFileSync(
      join(root, 'entries.jsonl'),
      `${JSON.stringify({ chain_index: 0, kind: 'memory.store', id: 'forged', subjects: '[]', body: '{}', committed_at: 'x' })}\n`,
    );
    await expect(store.appendEntries([note('m2')])).rejects.toMatchObject({ code: 'EWP_REFUSE_LEDGER_UNAVAILABLE', reason: 'damaged' });
    expect(await store.verifyChain()).toMatchObject({ ok: false, reason: 'extra_row' });
    await store.close();
  });
});
