/**
 * The tamper suite on the JSON-file store: every value of every file, one edit at a time, and for each
 * edit either the audit (`verifyChain`) fails or every read still returns exactly what was committed.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fileKey, JsonFileEvidenceStore } from '../src/json-file-store.js';
import { evidenceRecord, seedView } from '../test-support/fault-views.js';

const dir = mkdtempSync(join(tmpdir(), 'ewp-json-tamper-'));
let n = 0;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function readAll(store: JsonFileEvidenceStore): Promise<string> {
  const props = await store.listPropositions({ limit: 1000 });
  const out: unknown[] = [props];
  for (const p of props) {
    out.push(await store.get(p.proposition_id));
    const snaps = await store.listSnapshots(p.proposition_id);
    out.push(snaps);
    for (const s of snaps) out.push(await store.get(p.proposition_id, s.view_id));
  }
  return JSON.stringify(out);
}

async function ledger(): Promise<{ root: string; reads: string }> {
  const root = join(dir, `l${++n}`);
  const store = new JsonFileEvidenceStore(root);
  await store.put(seedView('P-1'));
  await store.extend('P-1', [{ kind: 'evidence', record: { ...evidenceRecord('e-opp'), polarity: 'opposes' } }], { newViewId: 'v2' });
  await store.put(seedView('P-2'));
  const reads = await readAll(store);
  await store.close();
  return { root, reads };
}

type Outcome = 'caught' | 'harmless' | 'missed';

async function judge(root: string, reads: string): Promise<Outcome> {
  let store: JsonFileEvidenceStore;
  try {
    store = new JsonFileEvidenceStore(root, { readOnly: true });
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
      return 'caught';
    }
    return now === reads ? 'harmless' : 'missed';
  } finally {
    await store.close();
  }
}

const history = (root: string, pid: string) => join(root, 'propositions', fileKey(pid), 'latest.json');

describe('attacker cases', () => {
  it("reordering a history's view ids (an older snapshot becomes latest) fails the audit", async () => {
    const { root, reads } = await ledger();
    const h = JSON.parse(readFileSync(history(root, 'P-1'), 'utf8'));
    h.view_ids.reverse();
    writeFileSync(history(root, 'P-1'), JSON.stringify(h));
    expect(await judge(root, reads)).toBe('caught');
  });

  it('a forged snapshot file plus its digest appended to the history fails the audit', async () => {
    const { root, reads } = await ledger();
    const h = JSON.parse(readFileSync(history(root, 'P-1'), 'utf8'));
    const views = join(root, 'propositions', fileKey('P-1'), 'views');
    const seedFile = join(views, `${fileKey('seed')}.json`);
    const forged = readFileSync(seedFile, 'utf8');
    writeFileSync(join(views, `${fileKey('forged')}.json`), forged);
    const { createHash } = await import('node:crypto');
    h.view_ids.push('forged');
    h.commits.forged = { ...h.commits.seed, content_digest: createHash('sha256').update(forged).digest('hex') };
    writeFileSync(history(root, 'P-1'), JSON.stringify(h));
    expect(await judge(root, reads)).toBe('caught');
  });
});

function files(root: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (!name.startsWith('.lock')) out.push(p);
    }
  };
  walk(root);
  return out;
}

/** Every leaf of a JSON value, as [path, value]. */
function leaves(value: unknown, path: (string | number)[] = []): [(string | number)[], unknown][] {
  if (Array.isArray(value)) return value.flatMap((v, i) => leaves(v, [...path, i]));
  if (value !== null && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => leaves(v, [...path, k]));
  return [[path, value]];
}

function setAt(root: unknown, path: (string | number)[], value: unknown): void {
  let cursor = root as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) cursor = cursor[key] as Record<string | number, unknown>;
  cursor[path.at(-1) as string | number] = value;
}

function mutate(v: unknown): unknown {
  if (typeof v === 'number') return v + 1;
  if (typeof v === 'string') return v.length > 0 ? `${v.slice(0, -1)}${v.at(-1) === 'x' ? 'y' : 'x'}` : 'x';
  if (typeof v === 'boolean') return !v;
  return 'x';
}

describe('tamper suite', () => {
  it('every value of every file and every log line, one edit at a time: caught or harmless, never missed', async () => {
    const { root: base, reads } = await ledger();
    const tally: Record<Outcome, number> = { caught: 0, harmless: 0, missed: 0 };
    const missed: string[] = [];
    const attempt = async (name: string, change: (root: string) => void) => {
      const root = join(dir, `t${++n}`);
      cpSync(base, root, { recursive: true });
      change(root);
      const outcome = await judge(root, reads);
      tally[outcome] += 1;
      if (outcome === 'missed') missed.push(name);
      rmSync(root, { recursive: true, force: true });
    };
    for (const file of files(base)) {
      const rel = relative(base, file);
      const text = readFileSync(file, 'utf8');
      if (rel === 'events.jsonl') {
        const lines = text.split('\n');
        for (let i = 0; i < lines.length; i += 1) {
          if (lines[i] === '') continue;
          await attempt(`${rel}:${i} dropped`, (root) => writeFileSync(join(root, rel), lines.filter((_, j) => j !== i).join('\n')));
          const entry = JSON.parse(lines[i] as string);
          for (const [path, value] of leaves(entry)) {
            await attempt(`${rel}:${i} ${path.join('.')}`, (root) => {
              const copy = structuredClone(entry);
              setAt(copy, path, mutate(value));
              writeFileSync(join(root, rel), lines.map((l, j) => (j === i ? JSON.stringify(copy) : l)).join('\n'));
            });
          }
        }
        continue;
      }
      const doc = JSON.parse(text);
      for (const [path, value] of leaves(doc)) {
        await attempt(`${rel} ${path.join('.')}`, (root) => {
          const copy = structuredClone(doc);
          setAt(copy, path, mutate(value));
          writeFileSync(join(root, rel), JSON.stringify(copy));
        });
      }
      await attempt(`${rel} deleted`, (root) => rmSync(join(root, rel)));
    }
    console.log(`json-file tamper: tried ${tally.caught + tally.harmless + tally.missed}, caught ${tally.caught}, harmless ${tally.harmless}, missed ${tally.missed}`);
    expect(missed).toEqual([]);
  });
});
