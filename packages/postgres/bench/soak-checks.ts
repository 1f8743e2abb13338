/**
 * What the soak proves afterwards, from a fresh read-only handle and the raw event log:
 * nothing acknowledged is lost, nothing is duplicated, the chain verifies, and every reader saw only
 * committed snapshots with a revision that never went backwards.
 */
import { createHash } from 'node:crypto';
import type { ChainVerification } from '@ewp/canonical';
import { ident } from '../src/postgres-schema.js';
import { openPostgresStore } from '../src/postgres-store.js';

/** One acknowledged write, as a writer printed it. */
export interface Ack {
  op: string;
  pid: string;
  /** `-` for an entries-only write. */
  viewId: string;
  recordId: string;
  /** `-` when the write carried no entry of its own. */
  entryId: string;
  micros: number;
}

/** One read, as a reader printed it. */
export interface ReaderSight {
  reader: string;
  pid: string;
  viewId: string;
  digest: string;
  /** The event log's length just before the read. */
  revision: number;
}

export interface SoakVerdict {
  /** Acknowledged writes missing at the end (must be empty). */
  lost: string[];
  /** Snapshots, records or entries committed more than once (must be empty). */
  duplicated: string[];
  /** Reads of a view that differs from the committed snapshot, or that went backwards (must be empty). */
  badReads: string[];
  chain: ChainVerification;
  /** Committed writes no writer acknowledged: killed between commit and acknowledgement (allowed). */
  committedUnacknowledged: number;
  snapshots: number;
  entries: number;
  ok: boolean;
}

const digestOf = (view: unknown) => createHash('sha256').update(JSON.stringify(view)).digest('hex');

export async function checkSoak(schema: string, propositions: number, acks: readonly Ack[], sights: readonly ReaderSight[]): Promise<SoakVerdict> {
  const store = await openPostgresStore({ schema, readOnly: true, maxConnections: 2 });
  try {
    const lost: string[] = [];
    const duplicated: string[] = [];
    const badReads: string[] = [];

    // Every event of the log, counted by what it committed: one event per snapshot, record and entry.
    const seen = new Map<string, number>();
    const count = (key: string) => seen.set(key, (seen.get(key) ?? 0) + 1);
    const events = (await store.pool.query(`SELECT event FROM ${ident(schema)}.chain ORDER BY idx`)).rows as { event: string }[];
    for (const { event } of events) {
      const e = JSON.parse(event) as { type: string; proposition_id?: string; view_id?: string; records?: [string, string][]; kind?: string; id?: string };
      if (e.type === 'snapshot_committed') count(`snapshot ${e.proposition_id} ${e.view_id}`);
      else if (e.type === 'record_appended') for (const [kind, id] of e.records ?? []) count(`record ${e.proposition_id} ${kind} ${id}`);
      else if (e.type === 'entry_appended') count(`entry ${e.kind} ${e.id}`);
    }
    for (const [key, n] of seen) if (n > 1) duplicated.push(`${key} committed ${n} times`);

    // The snapshots each proposition holds, in commit order (for the readers' order check).
    const order = new Map<string, Map<string, number>>();
    let snapshots = 0;
    for (let p = 0; p < propositions; p += 1) {
      const list = await store.listSnapshots(`P-${p}`);
      snapshots += list.length;
      order.set(`P-${p}`, new Map(list.map((s) => [s.view_id, s.seq])));
      if (new Set(list.map((s) => s.view_id)).size !== list.length) duplicated.push(`P-${p} lists a view id twice`);
    }

    let acknowledged = 0;
    for (const a of acks) {
      if (a.viewId !== '-') {
        acknowledged += 1;
        if (!order.get(a.pid)?.has(a.viewId)) lost.push(`${a.op} ${a.pid} ${a.viewId}: no such snapshot`);
        else if (!seen.has(`record ${a.pid} evidence ${a.recordId}`)) lost.push(`${a.op} ${a.pid} ${a.viewId}: record ${a.recordId} was never bound`);
      }
      if (a.entryId !== '-') {
        acknowledged += 1;
        const kind = a.op === 'entries' ? 'soak.own' : 'soak.with_view';
        if (!seen.has(`entry ${kind} ${a.entryId}`)) lost.push(`${a.op} entry ${kind} ${a.entryId}: missing`);
      }
    }
    // The acknowledged views' contents, each read back once: it holds the record the writer added.
    for (const a of acks) {
      if (a.viewId === '-' || Math.random() > 200 / acks.length) continue;
      const view = await store.get(a.pid, a.viewId);
      if (!view?.evidence.some((e) => e.evidence_id === a.recordId)) lost.push(`${a.op} ${a.pid} ${a.viewId}: record ${a.recordId} not in the view`);
    }

    // Readers: each view read is a committed snapshot, byte for byte, and no reader went backwards.
    const committed = new Map<string, string>();
    const lastRevision = new Map<string, number>();
    const lastPosition = new Map<string, number>();
    for (const s of sights) {
      if (s.viewId === '-') {
        badReads.push(`reader ${s.reader} found no view of ${s.pid}`);
        continue;
      }
      const key = `${s.pid} ${s.viewId}`;
      if (!committed.has(key)) committed.set(key, digestOf(await store.get(s.pid, s.viewId)));
      if (committed.get(key) !== s.digest) badReads.push(`reader ${s.reader} read ${key} differently from the committed snapshot`);
      const position = order.get(s.pid)?.get(s.viewId) ?? -1;
      const revision = lastRevision.get(s.reader) ?? 0;
      if (s.revision < revision) badReads.push(`reader ${s.reader}: revision ${s.revision} after ${revision}`);
      if (position < (lastPosition.get(`${s.reader} ${s.pid}`) ?? -1)) badReads.push(`reader ${s.reader}: ${s.pid} went back to ${s.viewId}`);
      lastRevision.set(s.reader, s.revision);
      lastPosition.set(`${s.reader} ${s.pid}`, position);
    }

    const chain = await store.verifyChain();
    const entries = (await store.readEntries({ kind: 'soak.*', limit: 100_000 })).length;
    const shared = (await store.readEntries({ kind: 'soak.shared', limit: 100_000 })).length;
    if (shared > 64) duplicated.push(`${shared} shared entries, at most 64 distinct`);
    const committedWrites = snapshots - propositions + entries - shared;
    return {
      lost,
      duplicated,
      badReads,
      chain,
      committedUnacknowledged: committedWrites - acknowledged,
      snapshots,
      entries,
      ok: lost.length === 0 && duplicated.length === 0 && badReads.length === 0 && chain.ok && chain.length === events.length,
    };
  } finally {
    await store.close();
  }
}
