/**
 * The tamper suite on the JSON-file store: one edit at a time, of every value, list and file of the
 * ledger directory and of every log line, and for each edit either the audit (`verifyChain`) or a
 * read refuses, or every read still returns exactly what was committed. A missed edit fails the test.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fileKey, JsonFileEvidenceStore } from '../src/json-file-store.js';
import { evidenceRecord, seedView } from '../test-support/fault-views.js';
import { judgeTamper, readAll, TamperTally } from '../test-support/tamper-judge.js';

const dir = mkdtempSync(join(tmpdir(), 'ewp-json-tamper-'));
let n = 0;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * seq 1 = P-2 seed; seq 2 = P-1 seed; seq 3 = P-1 v2, adding the only opposing evidence; seq 4 =
 * P-1 v3, a delta over v2 (the same shape as the SQLite and PostgreSQL suites).
 */
async function ledger(): Promise<{ root: string; reads: string }> {
  const root = join(dir, `l${++n}`);
  const store = new JsonFileEvidenceStore(root);
  await store.put(seedView('P-2'));
  await store.put(seedView('P-1'));
  await store.extend('P-1', [{ kind: 'evidence', record: { ...evidenceRecord('e-opp'), polarity: 'opposes' } }], { newViewId: 'v2' });
  await store.extend('P-1', [{ kind: 'evidence', record: evidenceRecord('e3') }], {
    newViewId: 'v3',
    entries: [{ kind: 'memory.store', id: 'm1', subjects: ['P-1'], body: { text: 'remember e3', n: 1 } }],
  });
  await store.appendEntries([
    { kind: 'decision', id: 'd1', subjects: ['P-1', 'P-2'], body: { verdict: 'act', big: 2n ** 70n } },
    { kind: 'memory.link', id: 'l1', body: { from: 'm1' } },
  ]);
  const reads = await readAll(store);
  await store.close();
  return { root, reads };
}

const judge = (root: string, reads: string) => judgeTamper(() => new JsonFileEvidenceStore(root, { readOnly: true }), reads);
const indexPath = (root: string, pid: string) => join(root, 'propositions', fileKey(pid), 'index.json');
const snapshotPath = (root: string, pid: string, seq: number) => join(root, 'propositions', fileKey(pid), 'snapshots', `${seq}.json`);
const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8'));

describe('attacker cases', () => {
  it("reordering an index's view ids (an older snapshot becomes latest) fails the audit or a read", async () => {
    const { root, reads } = await ledger();
    const index = readJson(indexPath(root, 'P-1'));
    const ids = index.snapshots.map((e: { view_id: string }) => e.view_id).reverse();
    index.snapshots.forEach((e: { view_id: string }, i: number) => {
      e.view_id = ids[i];
    });
    writeFileSync(indexPath(root, 'P-1'), JSON.stringify(index));
    expect(await judge(root, reads)).toBe('caught');
  });

  it('a forged snapshot file plus its index entry and digest (and a raised anchor) fails the audit', async () => {
    const { root, reads } = await ledger();
    // The forger copies the seed's file under a new view id: its content digest is the seed's.
    const file = readJson(snapshotPath(root, 'P-1', 2));
    writeFileSync(snapshotPath(root, 'P-1', 5), JSON.stringify({ ...file, view_id: 'forged' }));
    const index = readJson(indexPath(root, 'P-1'));
    index.snapshots.push({ ...index.snapshots[0], seq: 5, view_id: 'forged' });
    writeFileSync(indexPath(root, 'P-1'), JSON.stringify(index));
    const anchor = readJson(join(root, 'anchor.json'));
    writeFileSync(join(root, 'anchor.json'), JSON.stringify({ ...anchor, snapshots: 5 }));
    // Reads do change: the forged snapshot is now the latest ...
    const store = new JsonFileEvidenceStore(root, { readOnly: true });
    expect((await store.get('P-1'))?.view_id).toBe('forged');
    // ... and the audit says so.
    expect(await store.verifyChain()).toMatchObject({ ok: false, reason: 'row_mismatch' });
    await store.close();
    expect(await judge(root, reads)).toBe('caught');
  });

  it('a delta re-parented past the snapshot with the only opposing evidence fails the audit', async () => {
    const { root, reads } = await ledger();
    const index = readJson(indexPath(root, 'P-1'));
    index.snapshots.find((e: { seq: number }) => e.seq === 4).parent_seq = 2;
    writeFileSync(indexPath(root, 'P-1'), JSON.stringify(index));
    const store = new JsonFileEvidenceStore(root, { readOnly: true });
    expect((await store.get('P-1'))?.evidence.some((e) => e.evidence_id === 'e-opp')).toBe(false);
    await store.close();
    expect(await judge(root, reads)).toBe('caught');
  });

  it('listed assertion texts and commit times, edited, fail the audit', async () => {
    for (const change of [
      (e: Record<string, unknown>) => {
        e.assertion_texts = ['forged claim'];
      },
      (e: Record<string, unknown>) => {
        e.committed_at = '2020-01-01T00:00:00.000Z';
      },
    ]) {
      const { root, reads } = await ledger();
      const index = readJson(indexPath(root, 'P-2'));
      change(index.snapshots[0]);
      writeFileSync(indexPath(root, 'P-2'), JSON.stringify(index));
      expect(await judge(root, reads)).toBe('caught');
    }
  });
});

function files(root: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out.push(p);
    }
  };
  walk(root);
  return out;
}

type Path = (string | number)[];

/** Every leaf of a JSON value, as [path, value]. */
function leaves(value: unknown, path: Path = []): [Path, unknown][] {
  if (Array.isArray(value)) return value.flatMap((v, i) => leaves(v, [...path, i]));
  if (value !== null && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => leaves(v, [...path, k]));
  return [[path, value]];
}

/** Every array of a JSON value, as [path, array]. */
function arrays(value: unknown, path: Path = []): [Path, unknown[]][] {
  const own: [Path, unknown[]][] = Array.isArray(value) ? [[path, value]] : [];
  if (Array.isArray(value)) return [...own, ...value.flatMap((v, i) => arrays(v, [...path, i]))];
  if (value !== null && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => arrays(v, [...path, k]));
  return own;
}

function setAt(root: unknown, path: Path, value: unknown): unknown {
  if (path.length === 0) return value;
  let cursor = root as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) cursor = cursor[key] as Record<string | number, unknown>;
  cursor[path.at(-1) as string | number] = value;
  return root;
}

/** Other values for one leaf: off by one, shortened, lengthened, a changed hex digit, another type. */
function mutations(v: unknown): unknown[] {
  if (typeof v === 'number') return [v + 1, v - 1, 0, null];
  if (typeof v === 'string') {
    const out = [v.length > 0 ? v.slice(0, -1) : 'x', `${v} `, `${v}x`];
    const flipped = v.replace(/[0-9a-f]/, (c) => (c === '0' ? '1' : '0'));
    if (flipped !== v) out.push(flipped);
    return out;
  }
  if (typeof v === 'boolean') return [!v];
  return ['x', 1];
}

/** Other orders and lengths for one list: each element dropped, neighbours swapped, reversed. */
function listEdits(list: unknown[]): unknown[][] {
  const out: unknown[][] = [];
  for (let i = 0; i < list.length; i += 1) out.push(list.filter((_, j) => j !== i));
  for (let i = 0; i + 1 < list.length; i += 1) {
    const swapped = [...list];
    [swapped[i], swapped[i + 1]] = [swapped[i + 1], swapped[i]];
    out.push(swapped);
  }
  if (list.length > 2) out.push([...list].reverse());
  return out;
}

/** Each edit of one JSON value: every leaf mutated, every list reordered or shortened. */
function valueEdits(doc: unknown): [string, unknown][] {
  const out: [string, unknown][] = [];
  for (const [path, value] of leaves(doc)) {
    for (const next of mutations(value)) out.push([`${path.join('.')} = ${JSON.stringify(next)}`, setAt(structuredClone(doc), path, next)]);
  }
  for (const [path, list] of arrays(doc)) {
    listEdits(list).forEach((next, k) => {
      out.push([`${path.join('.')} list edit ${k}`, setAt(structuredClone(doc), path, next)]);
    });
  }
  return out;
}

describe('tamper suite', () => {
  it('every value, list and file, and every log line: caught or harmless, never missed', async () => {
    const { root: base, reads } = await ledger();
    const tally = new TamperTally();
    const attempt = async (name: string, change: (root: string) => void) => {
      const root = join(dir, `t${++n}`);
      cpSync(base, root, { recursive: true });
      change(root);
      tally.add(name, await judge(root, reads));
      rmSync(root, { recursive: true, force: true });
    };
    for (const file of files(base)) {
      const rel = relative(base, file);
      const text = readFileSync(file, 'utf8');
      await attempt(`${rel} deleted`, (root) => rmSync(join(root, rel)));
      await attempt(`${rel} emptied`, (root) => writeFileSync(join(root, rel), ''));
      if (rel === 'events.jsonl') {
        const lines = text.split('\n');
        for (let i = 0; i < lines.length; i += 1) {
          if (lines[i] === '') continue;
          const put = (root: string, line: string) => writeFileSync(join(root, rel), lines.map((l, j) => (j === i ? line : l)).join('\n'));
          await attempt(`${rel}:${i} dropped`, (root) => writeFileSync(join(root, rel), lines.filter((_, j) => j !== i).join('\n')));
          const entry = JSON.parse(lines[i] as string);
          for (const [edit, changed] of valueEdits(entry)) await attempt(`${rel}:${i} ${edit}`, (root) => put(root, JSON.stringify(changed)));
          // The event inside the entry, edited as JSON (its hash no longer matches).
          for (const [edit, changed] of valueEdits(JSON.parse(entry.event))) {
            await attempt(`${rel}:${i} event ${edit}`, (root) => put(root, JSON.stringify({ ...entry, event: JSON.stringify(changed) })));
          }
        }
        continue;
      }
      if (rel === 'entries.jsonl') {
        const lines = text.split('\n');
        for (let i = 0; i < lines.length; i += 1) {
          if (lines[i] === '') continue;
          const put = (root: string, line: string) => writeFileSync(join(root, rel), lines.map((l, j) => (j === i ? line : l)).join('\n'));
          await attempt(`${rel}:${i} dropped`, (root) => writeFileSync(join(root, rel), lines.filter((_, j) => j !== i).join('\n')));
          await attempt(`${rel}:${i} doubled`, (root) => writeFileSync(join(root, rel), lines.flatMap((l, j) => (j === i ? [l, l] : [l])).join('\n')));
          for (const [edit, changed] of valueEdits(JSON.parse(lines[i] as string)))
            await attempt(`${rel}:${i} ${edit}`, (root) => put(root, JSON.stringify(changed)));
        }
        continue;
      }
      for (const [edit, changed] of valueEdits(JSON.parse(text))) {
        await attempt(`${rel} ${edit}`, (root) => writeFileSync(join(root, rel), JSON.stringify(changed)));
      }
    }
    console.log(tally.summary('json-file tamper'));
    expect(tally.missed).toEqual([]);
    expect(tally.counts.caught).toBeGreaterThan(500);
  }, 600_000);
});
