/**
 * Faults on real SQLite files with real OS processes: concurrent appenders, a writer killed with
 * SIGKILL mid-ingest, and flipped bytes in stored rows and log entries.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqliteEvidenceStore } from '../src/sqlite-store.js';
import { bundleWorker } from '../../ledger/test-support/bundle-from-sources.mjs';
import { seedView } from '../../ledger/test-support/fault-views.js';
import { startWorker, untilOutput } from '../../ledger/test-support/worker-process.js';

const dir = mkdtempSync(join(tmpdir(), 'ewp-sqlite-faults-'));
/** Appends per process: the 2,500 by default; lower it with EWP_FAULT_APPENDS for a quick local run. */
const APPENDS = Number(process.env.EWP_FAULT_APPENDS ?? 2500);
let worker: string;

beforeAll(async () => {
  worker = await bundleWorker(join(import.meta.dirname, 'fault-worker.ts'));
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = (args: string[]) => startWorker(worker, args);

describe('sqlite faults', () => {
  it('4 processes appending ledger entries at once lose none, store each shared one once, and the chain verifies', async () => {
    const file = join(dir, 'entries.sqlite');
    const count = Math.min(APPENDS, 200);
    await new SqliteEvidenceStore(file).close();
    const workers = [0, 1, 2, 3].map((w) => run(['entries', file, String(w), String(count)]));
    expect(await Promise.all(workers.map((w) => w.done))).toEqual([0, 0, 0, 0]);
    const store = new SqliteEvidenceStore(file, { readOnly: true });
    const entries = await store.readEntries({ limit: 100_000 });
    expect(entries).toHaveLength(5 * count);
    expect(new Set(entries.map((e) => e.id)).size).toBe(5 * count);
    expect(entries.map((e) => e.chain_index)).toEqual(Array.from({ length: 5 * count }, (_, i) => i));
    expect(await store.readEntries({ subject: 'P-0', limit: 100_000 })).toHaveLength(4 * Math.ceil(count / 3));
    expect(await store.verifyChain()).toMatchObject({ ok: true, length: 5 * count });
    await store.close();
  }, 600_000);

  it('4 processes x 2,500 concurrent appends lose nothing and the chain verifies', async () => {
    const file = join(dir, 'concurrent.sqlite');
    const props = 100;
    const seed = new SqliteEvidenceStore(file);
    for (let p = 0; p < props; p += 1) await seed.put(seedView(`P-${p}`));
    await seed.close();

    const workers = [0, 1, 2, 3].map((w) => run(['append', file, String(w), String(APPENDS), String(props)]));
    expect(await Promise.all(workers.map((w) => w.done))).toEqual([0, 0, 0, 0]);

    const store = new SqliteEvidenceStore(file, { readOnly: true });
    const seen = new Set<string>();
    let snapshots = 0;
    for (let p = 0; p < props; p += 1) {
      const latest = await store.get(`P-${p}`);
      for (const e of latest?.evidence ?? []) if (e.evidence_id !== 'e0') seen.add(e.evidence_id);
      expect(latest?.evidence).toHaveLength(1 + 4 * Math.ceil((APPENDS - p) / props));
      snapshots += (await store.listSnapshots(`P-${p}`)).length;
    }
    expect(seen.size).toBe(4 * APPENDS);
    expect(snapshots).toBe(props + 4 * APPENDS);
    const chain = await store.verifyChain();
    expect(chain).toMatchObject({ ok: true });
    // seed: 2 events per put; each extend: 1 record event + 1 snapshot event.
    expect(chain.length).toBe(props * 2 + 4 * APPENDS * 2);
    await store.close();
  }, 900_000);

  it('a writer killed with SIGKILL mid 100,000-record ingest leaves no partial snapshot and a verifying chain', async () => {
    const file = join(dir, 'killed.sqlite');
    const ingest = run(['ingest', file, '100', '1000']);
    // Kill it somewhere inside the ingest: after a random number of committed views.
    const target = 5 + Math.floor(Math.random() * 20);
    await untilOutput(ingest, (lines) => lines.filter((l) => l.startsWith('stored')).length >= target);
    await new Promise((r) => setTimeout(r, Math.random() * 30));
    ingest.child.kill('SIGKILL');
    expect(await ingest.done).toBeNull();
    const reported = ingest.lines.filter((l) => l.startsWith('stored')).length;

    const store = new SqliteEvidenceStore(file);
    const props = await store.listPropositions({ limit: 1000 });
    expect(props.length).toBeGreaterThanOrEqual(reported);
    expect(props.length).toBeLessThanOrEqual(reported + 1);
    for (const p of props) {
      const view = await store.get(p.proposition_id);
      expect(view?.evidence).toHaveLength(1000);
    }
    const chain = await store.verifyChain();
    expect(chain).toMatchObject({ ok: true, length: props.length * 2 });
    // The ledger keeps working after the crash.
    await store.put(seedView('P-after'));
    expect(await store.verifyChain()).toMatchObject({ ok: true, length: props.length * 2 + 2 });
    await store.close();
  }, 120_000);

  it('a writer killed inside one 100,000-record put leaves nothing of it', async () => {
    const file = join(dir, 'killed-one.sqlite');
    const ingest = run(['ingest', file, '1', '100000']);
    await untilOutput(ingest, (lines) => lines.includes('ready'));
    // Decoding 100,000 records takes far longer than this; the kill lands before or inside the transaction.
    await new Promise((r) => setTimeout(r, 300));
    ingest.child.kill('SIGKILL');
    await ingest.done;
    const store = new SqliteEvidenceStore(file);
    if (!ingest.lines.includes('stored 0')) {
      expect(await store.get('P-big-0')).toBeUndefined();
      expect(await store.verifyChain()).toMatchObject({ ok: true, length: 0 });
      const counts = store.db.prepare('SELECT (SELECT count(*) FROM ewp_records) AS b, (SELECT count(*) FROM ewp_snapshots) AS s').get();
      expect(counts).toEqual({ b: 0, s: 0 });
    }
    await store.close();
  }, 120_000);
});
