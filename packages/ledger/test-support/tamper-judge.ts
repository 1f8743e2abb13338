/**
 * The judge of the tamper suites (JSON files, SQLite, PostgreSQL): after one edit of the stored
 * ledger, either the audit (`verifyChain`, what `ewp audit verify` runs) fails, or every read (latest
 * of each proposition, each view id, listPropositions, listSnapshots) returns exactly what was
 * committed. Anything else, a read that refuses included, is a missed tamper.
 */
import type { EvidenceStore } from '../src/evidence-store.js';

/**
 * `caught`: the audit failed (or the ledger would not even open, which `ewp audit verify` reports as
 * unusable); `harmless`: the audit passed and every read returns what was committed; `missed`: the
 * audit passed and a read changed or refused.
 */
export type TamperOutcome = 'caught' | 'harmless' | 'missed';

/** Everything a reader can see, as JSON text: snapshots, and ledger entries (all, and by each subject). */
export async function readAll(store: Pick<EvidenceStore, 'get' | 'listPropositions' | 'listSnapshots' | 'readEntries'>): Promise<string> {
  const props = await store.listPropositions({ limit: 1000 });
  const out: unknown[] = [props];
  for (const p of props) {
    out.push(await store.get(p.proposition_id));
    const snaps = await store.listSnapshots(p.proposition_id);
    out.push(snaps);
    for (const s of snaps) out.push(await store.get(p.proposition_id, s.view_id));
    out.push(await store.readEntries({ subject: p.proposition_id }));
  }
  out.push(await store.readEntries({ limit: 100_000 }));
  // Bigints (an entry body may hold one) as text.
  return JSON.stringify(out, (_key, value) => (typeof value === 'bigint' ? `${value}n` : value));
}

/**
 * Judge one tampered ledger. `open` opens it read-only; `committed` is {@link readAll} of the ledger
 * before the edit. The reads of a proposition the edit hid are covered by `committed` too: the
 * listing is compared whole.
 */
export async function judgeTamper(open: () => EvidenceStore | Promise<EvidenceStore>, committed: string): Promise<TamperOutcome> {
  let store: EvidenceStore;
  try {
    store = await open();
  } catch {
    return 'caught';
  }
  try {
    const audit = await store.verifyChain().catch(() => ({ ok: false }));
    if (!audit.ok) return 'caught';
    let now: string;
    try {
      now = await readAll(store);
    } catch {
      // The audit passed but a read refuses: the audit missed damage a reader meets.
      return 'missed';
    }
    return now === committed ? 'harmless' : 'missed';
  } finally {
    await store.close().catch(() => undefined);
  }
}

/** Counts of one suite; `refused` are edits the storage itself would not make (a UNIQUE or type error). */
export class TamperTally {
  readonly counts = { caught: 0, harmless: 0, missed: 0, refused: 0 };
  readonly missed: string[] = [];

  add(name: string, outcome: TamperOutcome | 'refused'): void {
    this.counts[outcome] += 1;
    if (outcome === 'missed') this.missed.push(name);
  }

  /** `<label>: tried N, caught N, harmless N, missed N` (refused edits are not tried). */
  summary(label: string): string {
    const c = this.counts;
    return `${label}: tried ${c.caught + c.harmless + c.missed}, caught ${c.caught}, harmless ${c.harmless}, missed ${c.missed}${c.refused > 0 ? ` (${c.refused} edits refused by the storage itself)` : ''}`;
  }
}
