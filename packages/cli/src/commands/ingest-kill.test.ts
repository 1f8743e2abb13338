/**
 * `ewp ingest` killed with SIGKILL in the middle of a streamed file (the built binary): the ledger
 * holds whole committed batches only (no partial snapshot), its chain verifies, and a rerun of the
 * same file completes it.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEvidenceStore } from '@ewp/sqlite';
import { afterAll, describe, expect, it } from 'vitest';

const bin = new URL('../../dist/bin.js', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'ewp-ingest-kill-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const VIEWS = 20_000;
const RECORDS = 10;
const BATCH = 250;

function source(id: string) {
  return {
    source_id: id,
    lineage_id: `L-${id}`,
    origin_type: 'extract',
    origin_locator: `loc:${id}`,
    snapshot_id: `snap:${id}`,
    content_hash: `sha256:${id}`,
    observed_at: '2026-09-01T00:00:00+00:00',
  };
}
function view(v: number) {
  const evidence = Array.from({ length: RECORDS }, (_, i) => ({
    evidence_id: `e${i}`,
    polarity: 'supports',
    source: source(`s${(v + i) % 50}`),
    content: `observation ${i} of P-${v}`,
    observed_at: '2026-09-01T00:00:00+00:00',
  }));
  return { proposition_id: `P-${String(v).padStart(5, '0')}`, view_id: 'v1', evidence };
}

describe('ewp ingest under SIGKILL', () => {
  it('leaves whole batches only, a verifying chain, and a rerun completes the file', async () => {
    const file = join(dir, 'views.jsonl');
    const out = createWriteStream(file);
    for (let v = 0; v < VIEWS; v += 1) out.write(`${JSON.stringify(view(v))}\n`);
    out.end();
    await once(out, 'finish');
    const db = join(dir, 'ledger.sqlite');

    const child = spawn(process.execPath, [bin, 'ingest', file, '--db', db, '--batch', String(BATCH), '--evaluated-at', '2026-09-21T21:00:00Z'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let printed = 0;
    child.stdout.setEncoding('utf8');
    // Killed once a few batches are committed (their lines are printed after each commit).
    child.stdout.on('data', (d: string) => {
      printed += d.split('\n').length - 1;
      if (printed >= 3 * BATCH && child.exitCode === null && !child.killed) child.kill('SIGKILL');
    });
    const [code, signal] = (await once(child, 'exit')) as [number | null, string | null];
    expect({ code, signal }).toEqual({ code: null, signal: 'SIGKILL' });

    const store = new SqliteEvidenceStore(db, { readOnly: true });
    const stored = await store.listPropositions({ limit: VIEWS });
    expect(stored.length).toBeGreaterThanOrEqual(3 * BATCH);
    expect(stored.length).toBeLessThan(VIEWS);
    expect(stored.length % BATCH).toBe(0);
    // Every stored snapshot is whole: the view as written, all its records.
    const ids = stored.map((p) => p.proposition_id).sort();
    expect(ids).toEqual(Array.from({ length: stored.length }, (_, v) => view(v).proposition_id));
    for (const k of [0, Math.floor(ids.length / 2), ids.length - 1]) {
      const got = await store.get(view(k).proposition_id);
      expect(got?.evidence.map((e) => [e.evidence_id, e.content])).toEqual(view(k).evidence.map((e) => [e.evidence_id, e.content]));
    }
    expect((await store.verifyChain()).ok).toBe(true);
    await store.close();

    const rerun = spawnSync(process.execPath, [bin, 'ingest', file, '--db', db, '--batch', String(BATCH), '--evaluated-at', '2026-09-21T21:00:00Z'], {
      encoding: 'utf8',
      maxBuffer: 1 << 30,
    });
    expect(rerun.status).toBe(0);
    expect(rerun.stdout).toContain(`${(VIEWS - stored.length).toLocaleString('en-US')} stored, ${stored.length.toLocaleString('en-US')} unchanged`);
    const after = new SqliteEvidenceStore(db, { readOnly: true });
    expect((await after.listPropositions({ limit: VIEWS + 1 })).length).toBe(VIEWS);
    await after.close();
  }, 120_000);
});
