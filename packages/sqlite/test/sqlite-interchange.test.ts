/**
 * Files are interchangeable between the drivers: a ledger written through one SQLite driver is read,
 * audited and extended through the other. This process runs on its Node's driver (better-sqlite3 on
 * Node 20, node:sqlite on Node 22 and 24); the child runs under the other Node (the Node 22 lane's binary,
 * or the machine's Node from inside a lane), so on the other driver.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleWorker } from '../../ledger/test-support/bundle-from-sources.mjs';
import { seedView } from '../../ledger/test-support/fault-views.js';
import { defaultSqliteDriver } from '../src/sqlite-driver.js';
import { SqliteEvidenceStore } from '../src/sqlite-store.js';

const dir = mkdtempSync(join(tmpdir(), 'ewp-sqlite-interchange-'));
let worker: string;
/** The other Node: the lane's Node 22 from the machine's Node, the machine's `node` from a lane (node:sqlite). */
const lane = (await import(String(new URL('../../../scripts/test-node22.mjs', import.meta.url)))) as { ensureNode22(): string };
const otherNode = defaultSqliteDriver() === 'node:sqlite' ? 'node' : lane.ensureNode22();

beforeAll(async () => {
  worker = await bundleWorker(join(import.meta.dirname, 'interchange-worker.ts'));
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Seen {
  driver: string;
  node: string;
  propositions: string[];
  entries: string[];
  verify: { ok: boolean; length: number };
}
const other = (...args: string[]): Seen =>
  JSON.parse(execFileSync(otherNode, [worker, ...args], { encoding: 'utf8', env: { ...process.env, EWP_SQLITE_DRIVER: '' } }));

async function local(file: string, write?: string): Promise<Seen> {
  const store = new SqliteEvidenceStore(file, { readOnly: write === undefined });
  if (write !== undefined) {
    await store.put(seedView(write));
    await store.appendEntries([{ kind: 'note', id: `note-${write}`, subjects: [write], body: { by: store.driver } }]);
  }
  const seen = {
    driver: store.driver,
    node: process.version,
    propositions: (await store.listPropositions({ limit: 100 })).map((p) => p.proposition_id).sort(),
    entries: (await store.readEntries({ limit: 100 })).map((e) => `${e.id} by ${(e.body as { by: string }).by}`),
    verify: await store.verifyChain(),
  };
  await store.close();
  return seen;
}

describe('SQLite files across drivers', () => {
  it('a ledger written here is read, audited and extended by the other driver, and then audits here', async () => {
    const file = join(dir, 'here-first.sqlite');
    const mine = await local(file, 'P-here');
    const theirs = other('write', file, 'P-there');
    // Two different drivers, or the test proves nothing.
    expect(new Set([mine.driver, theirs.driver])).toEqual(new Set(['better-sqlite3', 'node:sqlite']));
    expect(theirs.node).not.toBe(process.version);
    expect(theirs.propositions).toEqual(['P-here', 'P-there']);
    expect(theirs.entries).toEqual([`note-P-here by ${mine.driver}`, `note-P-there by ${theirs.driver}`]);
    expect(theirs.verify).toMatchObject({ ok: true });
    const again = await local(file);
    expect(again.propositions).toEqual(['P-here', 'P-there']);
    expect(again.entries).toEqual(theirs.entries);
    expect(again.verify).toEqual(theirs.verify);
  });

  it('a ledger created by the other driver opens here, read-only and writable, and audits', async () => {
    const file = join(dir, 'there-first.sqlite');
    const theirs = other('write', file, 'P-there');
    expect(theirs.driver).not.toBe(defaultSqliteDriver());
    const read = await local(file);
    expect(read.propositions).toEqual(['P-there']);
    expect(read.verify).toMatchObject({ ok: true, length: theirs.verify.length });
    const mine = await local(file, 'P-here');
    expect(mine.entries).toEqual([`note-P-there by ${theirs.driver}`, `note-P-here by ${mine.driver}`]);
    expect(mine.verify).toMatchObject({ ok: true });
    expect(other('read', file).verify).toEqual(mine.verify);
  });

  it('node:sqlite prints no ExperimentalWarning of its own, and every other warning still prints', () => {
    const node22 = process.versions.node.startsWith('22.') ? process.execPath : lane.ensureNode22();
    const run = spawnSync(node22, [worker, 'warn', join(dir, 'warn.sqlite')], { encoding: 'utf8', env: { ...process.env, EWP_SQLITE_DRIVER: '' } });
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ driver: 'node:sqlite' });
    expect(run.stderr).toContain('ExperimentalWarning: a warning of the application');
    expect(run.stderr).not.toMatch(/SQLite is an experimental/);
    // Without the filter, loading node:sqlite prints exactly that warning (so the check above can fail).
    const bare = spawnSync(node22, ['-e', "process.getBuiltinModule('node:sqlite'); setTimeout(() => {}, 20)"], { encoding: 'utf8' });
    expect(bare.stderr).toMatch(/ExperimentalWarning: SQLite is an experimental/);
  });
});
