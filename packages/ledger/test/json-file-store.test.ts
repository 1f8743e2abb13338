/** The JSON-file store beyond the shared suite: layout, format, crash recovery at every step, damage, the lock, several processes. */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StoreUnavailableError } from '../src/errors.js';
import { processStartTime } from '../src/file-lock.js';
import { fileKey, JsonFileEvidenceStore } from '../src/json-file-store.js';
import { bundleWorker } from '../test-support/bundle-from-sources.mjs';
import { evidenceRecord, seedView } from '../test-support/fault-views.js';

const dir = mkdtempSync(join(tmpdir(), 'ewp-json-store-'));
let n = 0;
const fresh = () => new JsonFileEvidenceStore(join(dir, `l${++n}`));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const indexPath = (s: JsonFileEvidenceStore, pid: string) => join(s.root, 'propositions', fileKey(pid), 'index.json');
const snapshotPath = (s: JsonFileEvidenceStore, pid: string, seq: number) => join(s.root, 'propositions', fileKey(pid), 'snapshots', `${seq}.json`);

/** Everything a reader sees, as text. */
async function reads(store: JsonFileEvidenceStore): Promise<string> {
  const props = await store.listPropositions({ limit: 1000 });
  const out: unknown[] = [props];
  for (const p of props) {
    out.push(await store.get(p.proposition_id));
    const snaps = await store.listSnapshots(p.proposition_id);
    out.push(snaps);
    for (const v of snaps) out.push(await store.get(p.proposition_id, v.view_id));
  }
  return JSON.stringify(out);
}

describe('layout', () => {
  it('hashes ids into file names: no collision, no escape', async () => {
    const s = fresh();
    for (const pid of ['a/b', 'a_b', '../../x']) await s.put({ ...seedView(pid), view_id: '../../v' });
    expect((await s.listPropositions()).map((p) => p.proposition_id).sort()).toEqual(['../../x', 'a/b', 'a_b']);
    expect(existsSync(join(dir, 'x'))).toBe(false);
    const index = JSON.parse(readFileSync(indexPath(s, 'a/b'), 'utf8'));
    expect(index).toMatchObject({ proposition_id: 'a/b', snapshots: [{ seq: 1, view_id: '../../v', parent_seq: null, depth: 0 }] });
    const snapshot = JSON.parse(readFileSync(snapshotPath(s, 'a/b', 1), 'utf8'));
    expect(Object.keys(snapshot)).toEqual(['view_id', 'head', 'members', 'records']);
    expect(snapshot.records.map((r: string[]) => r.slice(0, 2)).sort()).toEqual([
      ['assertion', 'a0'],
      ['evidence', 'e0'],
      ['source', 's-e0'],
      ['source', 's0'],
    ]);
  });

  it('writes the same events as every other store', async () => {
    const s = fresh();
    await s.put(seedView('P-1'));
    await s.extend('P-1', [{ kind: 'evidence', record: evidenceRecord('e1') }], { newViewId: 'v2' });
    const events = readFileSync(join(s.root, 'events.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(JSON.parse(l).event));
    expect(events.map((e) => e.type)).toEqual(['record_appended', 'snapshot_committed', 'record_appended', 'snapshot_committed']);
    expect(Object.keys(events[1]).sort()).toEqual(['at', 'content_digest', 'parent_view_id', 'proposition_id', 'records', 'seq', 'type', 'view_id']);
    expect(events[3]).toMatchObject({ parent_view_id: 'seed', view_id: 'v2' });
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

  it('refuses a ledger of an older format with a message to start a new one', () => {
    const old = join(dir, `old${++n}`);
    mkdirSync(join(old, 'propositions'), { recursive: true });
    writeFileSync(join(old, 'ledger.json'), JSON.stringify({ format: 'ewp-json-ledger', version: 2 }));
    let error: unknown;
    try {
      new JsonFileEvidenceStore(old);
    } catch (e) {
      error = e;
    }
    expect(StoreUnavailableError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'EWP_REFUSE_LEDGER_UNAVAILABLE', reason: 'schema' });
    expect(String((error as Error).message)).toMatch(/version 2; this store reads ewp-json-ledger version 3 only\. Start a new ledger/);
  });

  it('finishes laying out a new ledger that a killed process left half created', async () => {
    const root = join(dir, `half${++n}`);
    mkdirSync(join(root, 'propositions'), { recursive: true });
    const s = new JsonFileEvidenceStore(root);
    expect((await s.put(seedView('P-1'))).status).toBe('stored');
  });
});

describe('crash recovery', () => {
  let worker: string;
  beforeAll(async () => {
    worker = await bundleWorker(join(import.meta.dirname, 'kill-at-step-worker.ts'));
  }, 60_000);

  /**
   * A writer is killed before its 1st, 2nd, 3rd … file-system change (taking the lock, recovering,
   * publishing, releasing) until one finishes. After each kill: the ledger reads exactly as before or
   * exactly as after the write (never part of it), the audit passes, and the next writer proceeds.
   */
  for (const action of ['lock', 'put', 'putMany', 'extend'] as const) {
    it(`a ${action} killed at every step leaves the ledger before or after it, never between; the next writer proceeds`, async () => {
      const base = fresh();
      await base.put(seedView('P-1'));
      await base.put(seedView('P-2'));
      const before = await reads(base);
      await base.close();
      const done = join(dir, `done${++n}`);
      cpSync(base.root, done, { recursive: true });
      expect(spawnSync(process.execPath, [worker, done, '0', action]).status).toBe(0);
      const after = await reads(new JsonFileEvidenceStore(done, { readOnly: true }));
      const seen = { before: 0, after: 0 };
      for (let step = 1; ; step += 1) {
        const root = join(dir, `kill${++n}`);
        cpSync(base.root, root, { recursive: true });
        const child = spawnSync(process.execPath, [worker, root, String(step), action], { encoding: 'utf8' });
        const finished = child.status === 0;
        expect(finished || child.signal === 'SIGKILL', child.stderr).toBe(true);
        const ro = new JsonFileEvidenceStore(root, { readOnly: true });
        const now = await reads(ro);
        expect([before, after], `killed at step ${step}`).toContain(now);
        seen[now === before ? 'before' : 'after'] += 1;
        expect(await ro.verifyChain(), `killed at step ${step}`).toMatchObject({ ok: true });
        const next = new JsonFileEvidenceStore(root, { lockTimeoutMs: 5_000 });
        expect((await next.put(seedView('P-next'))).status).toBe('stored');
        expect(await next.verifyChain()).toMatchObject({ ok: true });
        expect(existsSync(join(root, '.lock'))).toBe(false);
        // Owner files of killed writers are removed by the next holder.
        expect(readdirSync(root).filter((name) => name.startsWith('.lock'))).toEqual([]);
        await next.close();
        rmSync(root, { recursive: true, force: true });
        if (finished) break;
      }
      console.log(`${action}: killed at each of ${seen.before + seen.after - 1} steps (${seen.before} left the ledger before the write, ${seen.after} after)`);
      if (action === 'lock') return;
      // Both outcomes happened: the kill landed before and after the commit point.
      expect(seen.before).toBeGreaterThan(5);
      expect(seen.after).toBeGreaterThan(0);
    }, 240_000);
  }

  it('a reader never meets a partial snapshot or an error while another process writes, and sees commits only accumulate', async () => {
    const s = fresh();
    await s.put(seedView('P-0'));
    const ingest = await bundleWorker(join(import.meta.dirname, 'json-worker.ts'));
    const child = spawn(process.execPath, [ingest, s.root, 'ingest', '30', '1000'], { stdio: ['ignore', 'ignore', 'inherit'] });
    let exited = false;
    const done = new Promise<number | null>((resolve) =>
      child.once('exit', (code) => {
        exited = true;
        resolve(code);
      }),
    );
    const reader = new JsonFileEvidenceStore(s.root, { readOnly: true });
    let reads = 0;
    let lastSeen = 0;
    while (!exited) {
      const listed = await reader.listPropositions({ limit: 1000 });
      for (const p of listed) {
        if (p.proposition_id.startsWith('P-big')) expect((await reader.get(p.proposition_id))?.evidence).toHaveLength(1000);
      }
      // Commits only accumulate.
      expect(listed.length).toBeGreaterThanOrEqual(lastSeen);
      lastSeen = listed.length;
      reads += 1;
      // The reads are synchronous file reads: let the child's exit event in.
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(await done).toBe(0);
    expect((await reader.listPropositions({ limit: 1000 })).length).toBe(31);
    expect(reads).toBeGreaterThan(3);
    expect(await reader.verifyChain()).toMatchObject({ ok: true });
  }, 120_000);

  it('a writer SIGKILLed at random moments of a 1,000-record ingest never leaves a partial snapshot', async () => {
    const s = fresh();
    await s.close();
    const ingest = await bundleWorker(join(import.meta.dirname, 'json-worker.ts'));
    for (let round = 0; round < 6; round += 1) {
      const child = spawn(process.execPath, [ingest, s.root, 'ingest', '40', '1000'], { stdio: ['ignore', 'pipe', 'inherit'] });
      await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
      await new Promise((resolve) => setTimeout(resolve, 20 + ((round * 53) % 120)));
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
      const store = new JsonFileEvidenceStore(s.root, { lockTimeoutMs: 5_000 });
      for (const p of await store.listPropositions({ limit: 1000 })) {
        if (p.proposition_id.startsWith('P-big')) expect((await store.get(p.proposition_id))?.evidence).toHaveLength(1000);
      }
      expect((await store.put(seedView(`P-after-${round}`))).status).toBe('stored');
      expect(await store.verifyChain()).toMatchObject({ ok: true });
      await store.close();
    }
  }, 120_000);

  it('cuts a torn last log line', async () => {
    const s = fresh();
    await s.put(seedView('P-1'));
    const head = JSON.parse(readFileSync(join(s.root, 'anchor.json'), 'utf8')).head_hash;
    writeFileSync(join(s.root, 'events.jsonl'), `{"prev_hash":"${head.slice(0, 20)}`, { flag: 'a' });
    await s.put(seedView('P-2'));
    expect(await s.verifyChain()).toMatchObject({ ok: true, length: 4 });
  });

  it('never cuts log bytes that do not continue the committed log', async () => {
    const s = fresh();
    await s.put(seedView('P-1'));
    writeFileSync(join(s.root, 'events.jsonl'), '{"prev_hash":"ffff"}\n', { flag: 'a' });
    await expect(s.put(seedView('P-2'))).rejects.toMatchObject({ reason: 'damaged' });
    expect(readFileSync(join(s.root, 'events.jsonl'), 'utf8')).toContain('ffff');
  });
});

describe('damage', () => {
  it('a flipped byte in a committed snapshot fails reads and verify, and is never overwritten', async () => {
    const s = fresh();
    await s.put(seedView('P-1'));
    const path = snapshotPath(s, 'P-1', 1);
    const text = readFileSync(path, 'utf8').replace('claim P-1', 'claim P-l');
    writeFileSync(path, text);
    await expect(s.get('P-1')).rejects.toMatchObject({ code: 'EWP_REFUSE_LEDGER_UNAVAILABLE', reason: 'damaged' });
    // The assertion's record was appended by event 0.
    expect(await s.verifyChain()).toMatchObject({ ok: false, reason: 'row_mismatch', firstBadIndex: 0 });
    await expect(s.put(seedView('P-1'))).rejects.toMatchObject({ reason: 'damaged' });
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
    expect((await s.verifyChain()).ok).toBe(false);
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
    const ownerOf = (pid: number, extra: Record<string, string>) => JSON.stringify({ pid, host, acquired_at: new Date().toISOString(), ...extra });
    const old = new Date(Date.now() - 60_000);
    const states: [string, (root: string) => void][] = [
      // Killed after writing its owner file, before linking it into place: no lock at all.
      ['owner file written, not linked', (root) => writeFileSync(join(root, `.lock.owner-${deadPid()}-x`), owner(deadPid()))],
      // Killed after the link, before removing its owner file: a lock naming a dead pid.
      [
        'linked, owner file not yet removed',
        (root) => {
          const pid = deadPid();
          writeFileSync(join(root, `.lock.owner-${pid}-y`), owner(pid));
          writeFileSync(join(root, '.lock'), owner(pid));
        },
      ],
      // Killed while holding it.
      ['held', (root) => writeFileSync(join(root, '.lock'), owner(deadPid()))],
      // Left by an older writer killed between creating the lock and writing its owner.
      [
        'ownerless (older writer)',
        (root) => {
          writeFileSync(join(root, '.lock'), '');
          utimesSync(join(root, '.lock'), old, old);
        },
      ],
      // Content that names no owner (damage, a foreign program): stale once older than the lease.
      ...['{}', 'null', '[]', '"x"', '{"pid":"1","host":7}', '{"pid":-1}', 'garbage \u0000\xff', '{"pid":1,'].map((text): [string, (root: string) => void] => [
        `content ${JSON.stringify(text)}`,
        (root) => {
          writeFileSync(join(root, '.lock'), text);
          utimesSync(join(root, '.lock'), old, old);
        },
      ]),
      // The pid was reused: a live process that started at another time than the holder did.
      ['pid reused by a live process', (root) => writeFileSync(join(root, '.lock'), ownerOf(process.ppid, { start_time: '1', token: 'a'.repeat(32) }))],
      ['PID 1, started at another time', (root) => writeFileSync(join(root, '.lock'), ownerOf(1, { start_time: '999999999999', token: 'd'.repeat(32) }))],
      // This very process's pid, written by an earlier process (PID 1 of a restarted container).
      ['this pid, not this holder (token)', (root) => writeFileSync(join(root, '.lock'), ownerOf(process.pid, { token: 'b'.repeat(32) }))],
      ['this pid, not this holder (older writer)', (root) => writeFileSync(join(root, '.lock'), owner(process.pid))],
      // Written before the host booted again.
      ['another boot', (root) => writeFileSync(join(root, '.lock'), ownerOf(process.ppid, { boot_id: 'not-this-boot' }))],
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

  it('a lock whose content names no owner is broken after the lease, never before, and never crashes a writer', async () => {
    for (const text of ['null', '{}', '']) {
      const root = join(dir, `fresh${++n}`);
      new JsonFileEvidenceStore(root);
      writeFileSync(join(root, '.lock'), text);
      const busy = new JsonFileEvidenceStore(root, { lockTimeoutMs: 300 });
      await expect(busy.put(seedView('P-1')), text).rejects.toThrow(/names no owner/);
      const s = new JsonFileEvidenceStore(root, { lockTimeoutMs: 5_000 });
      expect((await s.put(seedView('P-1'))).status, text).toBe('stored');
    }
  });

  it('a live holder of this host, with its start time, is waited for', async () => {
    const root = join(dir, `live${++n}`);
    new JsonFileEvidenceStore(root);
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 10000)']);
    await new Promise((resolve) => holder.once('spawn', resolve));
    const startTime = processStartTime(holder.pid as number);
    expect(startTime).toMatch(/^\d+$/);
    const host = (await import('node:os')).hostname();
    writeFileSync(join(root, '.lock'), JSON.stringify({ pid: holder.pid, host, acquired_at: 'T0', start_time: startTime, token: 'c'.repeat(32) }));
    const s = new JsonFileEvidenceStore(root, { lockTimeoutMs: 200 });
    await expect(s.put(seedView('P-1'))).rejects.toMatchObject({ reason: 'busy' });
    holder.kill('SIGKILL');
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
            const child = spawn(process.execPath, [worker, s.root, 'append', String(w), '50', String(props)], { stdio: 'inherit' });
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
