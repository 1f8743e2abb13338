/** The JSON-file store beyond the shared suite: layout, crash recovery, damage, the lock, several processes. */
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileKey, JsonFileEvidenceStore } from '../src/json-file-store.js';
import { bundleWorker } from '../test-support/bundle-from-sources.mjs';
import { seedView } from '../test-support/fault-views.js';

const dir = mkdtempSync(join(tmpdir(), 'ewp-json-store-'));
let n = 0;
const fresh = () => new JsonFileEvidenceStore(join(dir, `l${++n}`));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const viewPath = (s: JsonFileEvidenceStore, pid: string, vid: string) => join(s.root, 'propositions', fileKey(pid), 'views', `${fileKey(vid)}.json`);
const historyPath = (s: JsonFileEvidenceStore, pid: string) => join(s.root, 'propositions', fileKey(pid), 'latest.json');

describe('layout', () => {
  it('hashes ids into file names: no collision, no escape', async () => {
    const s = fresh();
    for (const pid of ['a/b', 'a_b', '../../x']) await s.put({ ...seedView(pid), view_id: '../../v' });
    expect((await s.listPropositions()).map((p) => p.proposition_id).sort()).toEqual(['../../x', 'a/b', 'a_b']);
    expect(existsSync(join(dir, 'x'))).toBe(false);
    const doc = JSON.parse(readFileSync(viewPath(s, 'a/b', '../../v'), 'utf8'));
    expect(Object.keys(doc).sort()).toEqual(['adapter_meta', 'claim', 'disputes', 'observations', 'source_graph', 'verification_history', 'view_meta']);
    expect(doc.claim).toBe('a/b');
    expect(doc.observations[0]).toMatchObject({ kind: 'assertion', id: 'a0', how_sure_they_sounded: 0.5 });
  });

  it('refuses a non-empty directory without a ledger, and read-only creates nothing', () => {
    const other = join(dir, `other${++n}`);
    mkdirSync(other);
    writeFileSync(join(other, 'notes.txt'), 'x');
    expect(() => new JsonFileEvidenceStore(other)).toThrow(expect.objectContaining({ reason: 'schema' }));
    const missing = join(dir, `missing${++n}`);
    expect(() => new JsonFileEvidenceStore(missing, { readOnly: true })).toThrow(expect.objectContaining({ reason: 'not_found' }));
    expect(existsSync(missing)).toBe(false);
  });
});

describe('crash recovery', () => {
  it('replaces an orphan snapshot file left by an interrupted write', async () => {
    const s = fresh();
    await s.put(seedView('P-1'));
    mkdirSync(join(s.root, 'propositions', fileKey('P-2'), 'views'), { recursive: true });
    writeFileSync(viewPath(s, 'P-2', 'seed'), '{"claim": "P-2", "trunc');
    expect(await s.get('P-2', 'seed')).toBeUndefined();
    await s.put(seedView('P-2'));
    expect((await s.get('P-2'))?.view_id).toBe('seed');
    expect(await s.verifyChain()).toMatchObject({ ok: true, length: 4 });
  });

  it('undoes a commit that crashed after the log append but before the history (the snapshot never existed)', async () => {
    const s = fresh();
    await s.put(seedView('P-1'));
    const saved = join(dir, `anchor-${n}.json`);
    copyFileSync(join(s.root, 'anchor.json'), saved);
    await s.put(seedView('P-2'));
    // Roll back what steps 3 and 4 wrote: P-2's history and the anchor.
    rmSync(historyPath(s, 'P-2'));
    copyFileSync(saved, join(s.root, 'anchor.json'));
    expect(await s.get('P-2')).toBeUndefined();
    expect(await s.verifyChain()).toMatchObject({ ok: true, length: 2 });
    await s.put(seedView('P-3'));
    expect(await s.verifyChain()).toMatchObject({ ok: true, length: 4 });
    expect(readFileSync(join(s.root, 'events.jsonl'), 'utf8')).not.toContain('P-2');
  });

  it('completes a commit that crashed after the history but before the anchor', async () => {
    const s = fresh();
    await s.put(seedView('P-1'));
    const saved = join(dir, `anchor-${n}.json`);
    copyFileSync(join(s.root, 'anchor.json'), saved);
    await s.put(seedView('P-2'));
    copyFileSync(saved, join(s.root, 'anchor.json'));
    expect((await s.get('P-2'))?.view_id).toBe('seed');
    await s.put(seedView('P-3'));
    expect(await s.verifyChain()).toMatchObject({ ok: true, length: 6 });
  });

  it('cuts a torn last log line', async () => {
    const s = fresh();
    await s.put(seedView('P-1'));
    writeFileSync(join(s.root, 'events.jsonl'), '{"prev_hash": "00', { flag: 'a' });
    await s.put(seedView('P-2'));
    expect(await s.verifyChain()).toMatchObject({ ok: true, length: 4 });
  });
});

describe('damage', () => {
  it('a flipped byte in a committed snapshot fails reads and verify, and is never overwritten', async () => {
    const s = fresh();
    await s.put(seedView('P-1'));
    const path = viewPath(s, 'P-1', 'seed');
    const text = readFileSync(path, 'utf8').replace('claim P-1', 'claim P-l');
    writeFileSync(path, text);
    await expect(s.get('P-1')).rejects.toMatchObject({ code: 'EWP_REFUSE_LEDGER_UNAVAILABLE', reason: 'damaged' });
    expect(await s.verifyChain()).toMatchObject({ ok: false, reason: 'row_mismatch', firstBadIndex: 1 });
    expect((await s.put(seedView('P-1'))).status).toBe('unchanged');
    expect(readFileSync(path, 'utf8')).toBe(text);
  });

  it('a flipped byte in the log is found at its index; a shortened log refuses writes', async () => {
    const s = fresh();
    await s.put(seedView('P-1'));
    await s.put(seedView('P-2'));
    const log = join(s.root, 'events.jsonl');
    const original = readFileSync(log, 'utf8');
    const lines = original.split('\n');
    lines[2] = (lines[2] as string).replace('P-2', 'P-3');
    writeFileSync(log, lines.join('\n'));
    expect(await s.verifyChain()).toMatchObject({ ok: false, reason: 'hash_mismatch', firstBadIndex: 2 });
    writeFileSync(log, original.split('\n').slice(0, 2).join('\n'));
    await expect(s.put(seedView('P-9'))).rejects.toMatchObject({ reason: 'damaged' });
    expect(await s.verifyChain()).toMatchObject({ ok: false, reason: 'truncated' });
  });
});

describe('lock', () => {
  it('breaks a lock left by a dead process', async () => {
    const s = fresh();
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString();
    writeFileSync(join(s.root, '.lock'), JSON.stringify({ pid: Number(dead), host: (await import('node:os')).hostname(), acquired_at: 'x' }));
    await s.put(seedView('P-1'));
    expect(existsSync(join(s.root, '.lock'))).toBe(false);
  });

  it('waits for a live holder and reports busy after the timeout', async () => {
    const root = join(dir, `busy${++n}`);
    new JsonFileEvidenceStore(root);
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 10000)']);
    writeFileSync(join(root, '.lock'), JSON.stringify({ pid: holder.pid, host: (await import('node:os')).hostname(), acquired_at: 'x' }));
    const s = new JsonFileEvidenceStore(root, { lockTimeoutMs: 200 });
    await expect(s.put(seedView('P-1'))).rejects.toMatchObject({ code: 'EWP_REFUSE_LEDGER_UNAVAILABLE', reason: 'busy' });
    holder.kill('SIGKILL');
  });
});

describe('lock under SIGKILL', () => {
  let worker: string;
  beforeAll(async () => {
    worker = await bundleWorker(join(import.meta.dirname, 'lock-worker.ts'));
  });

  const deadPid = () => Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString());

  it('the states a kill leaves at each step of taking the lock never block the next writer', async () => {
    const host = (await import('node:os')).hostname();
    const owner = (pid: number) => JSON.stringify({ pid, host, acquired_at: new Date().toISOString() });
    const old = new Date(Date.now() - 60_000);
    const states: [string, (root: string) => void][] = [
      // Killed after writing its owner file, before linking it into place: no lock at all.
      ['owner file written, not linked', (root) => writeFileSync(join(root, `.lock.owner-${deadPid()}-x`), owner(deadPid()))],
      // Killed after the link, before removing its owner file: a lock naming a dead pid.
      ['linked, owner file not yet removed', (root) => {
        const pid = deadPid();
        writeFileSync(join(root, `.lock.owner-${pid}-y`), owner(pid));
        writeFileSync(join(root, '.lock'), owner(pid));
      }],
      // Killed while holding it.
      ['held', (root) => writeFileSync(join(root, '.lock'), owner(deadPid()))],
      // Left by an older writer killed between creating the lock and writing its owner.
      ['ownerless (older writer)', (root) => {
        writeFileSync(join(root, '.lock'), '');
        utimesSync(join(root, '.lock'), old, old);
      }],
    ];
    for (const [name, leave] of states) {
      const root = join(dir, `killed${++n}`);
      new JsonFileEvidenceStore(root);
      leave(root);
      const s = new JsonFileEvidenceStore(root, { lockTimeoutMs: 5_000 });
      expect((await s.put(seedView('P-1'))).status, name).toBe('stored');
      expect(existsSync(join(root, '.lock')), name).toBe(false);
    }
  });

  it('a writer SIGKILLed at random points while taking and releasing the lock never blocks the next one', async () => {
    const root = join(dir, `sigkill${++n}`);
    new JsonFileEvidenceStore(root);
    for (let round = 0; round < 12; round += 1) {
      const child = spawn(process.execPath, [worker, join(root, '.lock')], { stdio: ['ignore', 'pipe', 'inherit'] });
      await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
      await new Promise((resolve) => setTimeout(resolve, 5 + ((round * 37) % 40)));
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
      const s = new JsonFileEvidenceStore(root, { lockTimeoutMs: 5_000 });
      expect((await s.put({ ...seedView(`P-${round}`) })).status).toBe('stored');
    }
    const s = new JsonFileEvidenceStore(root, { readOnly: true });
    expect(await s.verifyChain()).toMatchObject({ ok: true });
  });

  it('busy names the owner', async () => {
    const root = join(dir, `busyname${++n}`);
    new JsonFileEvidenceStore(root);
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 10000)']);
    writeFileSync(join(root, '.lock'), JSON.stringify({ pid: holder.pid, host: (await import('node:os')).hostname(), acquired_at: 'T0' }));
    const s = new JsonFileEvidenceStore(root, { lockTimeoutMs: 100 });
    await expect(s.put(seedView('P-1'))).rejects.toThrow(new RegExp(`pid ${holder.pid}`));
    holder.kill('SIGKILL');
  });
});

describe('several processes', () => {
  let worker: string;
  beforeAll(async () => {
    worker = await bundleWorker(join(import.meta.dirname, 'json-worker.ts'));
  }, 60_000);

  it('4 processes x 50 appends lose nothing and the chain verifies', async () => {
    const s = fresh();
    const props = 10;
    for (let p = 0; p < props; p += 1) await s.put(seedView(`P-${p}`));
    const codes = await Promise.all(
      [0, 1, 2, 3].map(
        (w) =>
          new Promise<number | null>((resolve) => {
            const child = spawn(process.execPath, [worker, s.root, String(w), '50', String(props)], { stdio: 'inherit' });
            child.on('exit', resolve);
          }),
      ),
    );
    expect(codes).toEqual([0, 0, 0, 0]);
    let total = 0;
    for (let p = 0; p < props; p += 1) {
      const latest = await s.get(`P-${p}`);
      expect(latest?.evidence).toHaveLength(1 + 20);
      total += (await s.listSnapshots(`P-${p}`)).length;
    }
    expect(total).toBe(props + 200);
    expect(await s.verifyChain()).toMatchObject({ ok: true, length: props * 2 + 400 });
  }, 120_000);
});
