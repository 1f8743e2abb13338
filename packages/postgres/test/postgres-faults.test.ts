/**
 * Faults on the real PostgreSQL server with real OS processes: concurrent appenders on one schema,
 * a writer killed with SIGKILL mid-ingest, flipped bytes in stored rows and log entries.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropPostgresLedger, openPostgresStore } from '../src/postgres-store.js';
import { bundleWorker } from '../../ledger/test-support/bundle-from-sources.mjs';
import { seedView } from '../../ledger/test-support/fault-views.js';
import { startWorker, untilOutput } from '../../ledger/test-support/worker-process.js';

const run = randomBytes(4).toString('hex');
/** Appends per process: the 2,500 by default; lower it with EWP_FAULT_APPENDS for a quick local run. */
const APPENDS = Number(process.env.EWP_FAULT_APPENDS ?? 2500);
const schemas: string[] = [];
const schema = (name: string) => {
  const s = `ewp_fault_${run}_${name}`;
  schemas.push(s);
  return s;
};
let worker: string;

beforeAll(async () => {
  worker = await bundleWorker(join(import.meta.dirname, 'fault-worker.ts'));
}, 60_000);
afterAll(async () => {
  for (const s of schemas) await dropPostgresLedger(s);
});

const start = (args: string[]) => startWorker(worker, args);

describe('postgres faults', () => {
  it('4 processes x 2,500 concurrent appends on one schema lose nothing and the chain verifies', async () => {
    const s = schema('concurrent');
    const props = 100;
    const seed = await openPostgresStore({ schema: s });
    for (let p = 0; p < props; p += 1) await seed.put(seedView(`P-${p}`));
    await seed.close();

    const workers = [0, 1, 2, 3].map((w) => start(['append', s, String(w), String(APPENDS), String(props)]));
    expect(await Promise.all(workers.map((w) => w.done))).toEqual([0, 0, 0, 0]);

    const store = await openPostgresStore({ schema: s, readOnly: true });
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
    expect(await store.verifyChain()).toMatchObject({ ok: true, length: props * 2 + 4 * APPENDS * 2 });
    await store.close();
  }, 900_000);

  it('a writer killed with SIGKILL mid 100,000-record ingest leaves no partial snapshot and a verifying chain', async () => {
    const s = schema('killed');
    const ingest = start(['ingest', s, '100', '1000']);
    const target = 5 + Math.floor(Math.random() * 20);
    await untilOutput(ingest, (lines) => lines.filter((l) => l.startsWith('stored')).length >= target);
    await new Promise((r) => setTimeout(r, Math.random() * 30));
    ingest.child.kill('SIGKILL');
    expect(await ingest.done).toBeNull();
    const reported = ingest.lines.filter((l) => l.startsWith('stored')).length;
    // The server notices the dead connection and rolls its transaction back; wait until the lock is free.
    const store = await openPostgresStore({ schema: s });
    await store.put(seedView('P-after'));
    const props = (await store.listPropositions({ limit: 1000 })).filter((p) => p.proposition_id !== 'P-after');
    expect(props.length).toBeGreaterThanOrEqual(reported);
    expect(props.length).toBeLessThanOrEqual(reported + 1);
    for (const p of props) expect((await store.get(p.proposition_id))?.evidence).toHaveLength(1000);
    expect(await store.verifyChain()).toMatchObject({ ok: true, length: props.length * 2 + 2 });
    await store.close();
  }, 120_000);

  it('detects a flipped byte in a record row, a snapshot head and a log entry', async () => {
    const s = schema('tamper');
    const store = await openPostgresStore({ schema: s });
    await store.put(seedView('P-1'));
    await store.extend('P-1', [{ kind: 'evidence', record: { ...seedView('P-1').evidence[0], evidence_id: 'e1' } }], { newViewId: 'v2' });
    await store.put(seedView('P-2'));
    expect((await store.verifyChain()).ok).toBe(true);
    const q = (sql: string) => store.pool.query(sql);

    await q(`UPDATE ${s}.bindings SET body = replace(body, 'observation', 'observatioN') WHERE owner = 'P-1' AND id = 'e0'`);
    await expect(store.get('P-1')).rejects.toMatchObject({ code: 'EWP_REFUSE_LEDGER_UNAVAILABLE', reason: 'damaged' });
    expect(await store.verifyChain()).toMatchObject({ ok: false, reason: 'row_mismatch', firstBadIndex: 0 }); // the record_appended event that bound e0
    await q(`UPDATE ${s}.bindings SET body = replace(body, 'observatioN', 'observation') WHERE owner = 'P-1' AND id = 'e0'`);
    expect((await store.verifyChain()).ok).toBe(true);

    await q(`UPDATE ${s}.snapshots SET head = replace(head, '"degraded":false', '"degraded":true') WHERE owner = 'P-2'`);
    await expect(store.get('P-2')).rejects.toMatchObject({ reason: 'damaged' });
    expect(await store.verifyChain()).toMatchObject({ ok: false, reason: 'row_mismatch' });
    await q(`UPDATE ${s}.snapshots SET head = replace(head, '"degraded":true', '"degraded":false') WHERE owner = 'P-2'`);

    await q(`UPDATE ${s}.chain SET event = replace(event, '"P-1"', '"P-l"') WHERE idx = 2`);
    expect(await store.verifyChain()).toMatchObject({ ok: false, reason: 'hash_mismatch', firstBadIndex: 2 });
    await q(`UPDATE ${s}.chain SET event = replace(event, '"P-l"', '"P-1"') WHERE idx = 2`);

    await q(`DELETE FROM ${s}.chain WHERE idx >= 4`);
    expect(await store.verifyChain()).toMatchObject({ ok: false, reason: 'truncated', firstBadIndex: 4 });
    await expect(store.put(seedView('P-3'))).rejects.toMatchObject({ reason: 'damaged' });
    await store.close();
  });

  it('refuses a missing schema read-only (creating nothing) and a schema of another version', async () => {
    const s = schema('versions');
    await expect(openPostgresStore({ schema: s, readOnly: true })).rejects.toMatchObject({ reason: 'not_found' });
    const probe = await openPostgresStore({ schema: 'public' }).catch((e: unknown) => e);
    expect(probe).toMatchObject({ reason: 'schema' });
    const store = await openPostgresStore({ schema: s });
    await store.pool.query(`UPDATE ${s}.meta SET value = '0' WHERE key = 'schema_version'`);
    await store.close();
    await expect(openPostgresStore({ schema: s })).rejects.toMatchObject({ reason: 'schema', message: expect.stringContaining('start a new ledger') });
  });
});
