/** A read-only handle runs reads queued back to back in one read transaction; what it may and may not miss. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { seedView } from '../../ledger/test-support/fault-views.js';
import { SqliteEvidenceStore } from '../src/sqlite-store.js';

const dir = mkdtempSync(join(tmpdir(), 'ewp-sqlite-read-run-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('read-only SqliteEvidenceStore, reads queued together', () => {
  it('answer as sequential reads do, and a read issued after a write of this process resolved sees it', async () => {
    const file = join(dir, 'same-process.sqlite');
    const writer = new SqliteEvidenceStore(file);
    for (let i = 0; i < 20; i += 1) await writer.put(seedView(`P-${i}`));
    const reader = new SqliteEvidenceStore(file, { readOnly: true });
    const sequential = [];
    for (let i = 0; i < 20; i += 1) sequential.push(await reader.get(`P-${i}`));
    const together = await Promise.all(Array.from({ length: 20 }, (_, i) => reader.get(`P-${i}`)));
    expect(together).toEqual(sequential);
    // Many reads queued; meanwhile the writer commits, and a read is issued once that write resolved.
    const queued = Array.from({ length: 200 }, (_, i) => reader.get(`P-${i % 20}`));
    const late = writer.put(seedView('P-late')).then(() => reader.get('P-late'));
    await Promise.all(queued);
    expect((await late)?.proposition_id).toBe('P-late');
    await reader.close();
    await writer.close();
  });

  it('a commit by another process between two reads of one caller is seen by the second', async () => {
    const file = join(dir, 'other-process.sqlite');
    const writer = new SqliteEvidenceStore(file);
    await writer.put(seedView('P-0'));
    await writer.close();
    const reader = new SqliteEvidenceStore(file, { readOnly: true });
    expect(await reader.get('P-0')).toBeDefined();
    expect(await reader.get('P-other')).toBeUndefined();
    // Another process commits (synchronously, within this turn of the event loop).
    // On the driver this Node has: node:sqlite where built in, else better-sqlite3.
    const sqlite = join(import.meta.dirname, '..', 'node_modules', 'better-sqlite3');
    const script = `
      const builtin = process.getBuiltinModule?.('node:sqlite');
      const db = builtin ? new builtin.DatabaseSync(${JSON.stringify(file)}) : new (require(${JSON.stringify(sqlite)}))(${JSON.stringify(file)});
      db.exec("INSERT INTO ewp_meta (key, value) VALUES ('probe', 'written by another process')");
      db.close();`;
    const before = await reader.revision();
    const child = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
    expect(child.status, child.stderr).toBe(0);
    expect(await reader.revision()).not.toBe(before);
    await reader.close();
  });
});
