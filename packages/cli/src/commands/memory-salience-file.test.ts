/**
 * The salience side file from the outside: a real `ewp serve --http` (bundled from the sources, in its
 * own process) holds it while anonymous `POST /v1/recall` calls bump it and `ewp recall` runs beside it;
 * a corrupt file is read by `ewp recall` and `ewp evidence show` with one warning, never a crash.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { once } from 'node:events';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, type Plugin } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCaptured } from '../testing/captured-io.js';
import { memoryEvidenceCommand } from './memory-evidence.js';
import { memoryRecallCommand } from './memory-recall.js';
import { memoryStoreCommand } from './memory-store.js';

const dir = mkdtempSync(join(tmpdir(), 'ewp-cli-salience-'));
// Under @ewp/sqlite's node_modules, so better-sqlite3 (kept outside the bundle) resolves.
const cache = join(import.meta.dirname, '..', '..', '..', 'sqlite', 'node_modules', '.cache');
/** A package the sources import that is not installed (an optional peer loaded on demand) stays outside the bundle. */
const optionalPeersOutside: Plugin = {
  name: 'optional-peers-outside',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.pluginData === 'inner') return undefined;
      const found = await b.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: 'inner' });
      return found.errors.length > 0 ? { path: args.path, external: true } : found;
    });
  },
};
let bin: string;
let binDir: string;
beforeAll(async () => {
  mkdirSync(cache, { recursive: true });
  binDir = mkdtempSync(join(cache, 'ewp-cli-'));
  bin = join(binDir, 'ewp.mjs');
  await build({
    entryPoints: [join(import.meta.dirname, '..', 'bin.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    conditions: ['@ewp/source'],
    external: ['better-sqlite3', 'pg-native'],
    plugins: [optionalPeersOutside],
    banner: { js: "import { createRequire as __ewpRequire } from 'node:module'; const require = __ewpRequire(import.meta.url);" },
    outfile: bin,
    logLevel: 'silent',
  });
}, 120_000);
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  if (binDir !== undefined) rmSync(binDir, { recursive: true, force: true });
});

const MEMORIES = 20;
const lines = (path: string) => readFileSync(path, 'utf8').split('\n').length - 1;
const run = (cmd: typeof memoryStoreCommand, ...args: string[]) => runCaptured((io) => cmd(args, io), { cwd: dir });

/** The memories `tok<i> sensor reads …`, stored by the CLI; their hashes in order. */
async function ledgerOf(name: string): Promise<{ db: string; hashes: string[] }> {
  const db = join(dir, name);
  const hashes: string[] = [];
  for (let i = 0; i < MEMORIES; i += 1) {
    const r = await run(memoryStoreCommand, `tok${i} sensor reads ${i * 7} units`, '--class', 'observation', '--source', 'sensor', '--json', '--db', db);
    expect(r.code, r.stderr).toBe(0);
    hashes.push(JSON.parse(r.stdout).hash);
  }
  return { db, hashes };
}

/** Whether process `pid` holds a deleted salience file open (Linux; false elsewhere). */
function holdsDeletedSalience(pid: number): boolean {
  if (!existsSync(`/proc/${pid}/fd`)) return false;
  return readdirSync(`/proc/${pid}/fd`).some((fd) => {
    try {
      const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      return target.includes('salience.jsonl') && target.endsWith('(deleted)');
    } catch {
      return false;
    }
  });
}

describe('the salience side file beside a running ewp serve', () => {
  it('is kept by the server alone: anonymous recalls keep it within 2 × memories + 256 lines, and ewp recall beside it never replaces it', async () => {
    const { db, hashes } = await ledgerOf('served.sqlite');
    const side = `${db}.salience.jsonl`;
    // With an ingest token, as an agent's server runs; the recalls below carry none.
    const token = join(dir, 'token');
    writeFileSync(token, `${'t'.repeat(40)}\n`, { mode: 0o600 });
    const server: ChildProcessWithoutNullStreams = spawn(process.execPath, [bin, 'serve', '--http', '127.0.0.1:0', '--db', db, '--ingest-token-file', token]);
    let err = '';
    let calls = 0;
    server.stderr.setEncoding('utf8').on('data', (d: string) => {
      err += d;
    });
    try {
      while (!/listening on (\S+)/.test(err)) {
        if (server.exitCode !== null) throw new Error(err);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const url = new URL(/listening on (\S+)/.exec(err)![1]!).origin;
      // Every call recalls all the memories (no token: the reader's role).
      const recall = async () => {
        const res = await fetch(`${url}/v1/recall`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query: 'sensor reads', limit: MEMORIES }),
        });
        expect(res.status, await res.clone().text()).toBe(200);
        expect(((await res.json()) as { rows: unknown[] }).rows).toHaveLength(MEMORIES);
      };
      let most = 0;
      for (; calls < 200; calls += 1) {
        await recall();
        // Let the server's batched write go out now and then.
        if (calls % 4 === 3) await new Promise((resolve) => setTimeout(resolve, 60));
        if (existsSync(side)) most = Math.max(most, lines(side));
      }
      // 50 writes of 20 memories' lines, appended, would be 1,000 lines.
      expect(most).toBeGreaterThan(MEMORIES);
      expect(most).toBeLessThanOrEqual(2 * MEMORIES + 256);
      const ino = statSync(side).ino;
      const beside = await run(memoryRecallCommand, 'sensor', '--db', db);
      expect(beside.code).toBe(0);
      expect(beside.stdout).toContain('tok');
      expect(beside.stderr).toMatch(
        new RegExp(`^ewp recall: warning: the salience of \\d+ memories changed here is not saved: .* is kept by process ${server.pid} \\(since [^)]+\\)\\n$`),
      );
      expect(statSync(side).ino).toBe(ino);
      expect(existsSync(`${side}.lock`)).toBe(true);
      for (let i = 0; i < 20; i += 1, calls += 1) await recall();
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(holdsDeletedSalience(server.pid!)).toBe(false);
      server.kill('SIGTERM');
      await once(server, 'exit');
      expect(existsSync(`${side}.lock`)).toBe(false);
    } finally {
      if (server.exitCode === null) server.kill('SIGKILL');
    }
    // Every one of the server's recalls is in the file; the verb's own recall is not.
    for (const hash of [hashes[0]!, hashes[MEMORIES - 1]!]) {
      const shown = await run(memoryEvidenceCommand, 'show', hash, '--json', '--db', db);
      expect(JSON.parse(shown.stdout).salience.recall_count).toBe(calls);
    }
    expect(lines(side)).toBeLessThanOrEqual(2 * MEMORIES + 256);
  }, 120_000);
});

describe('a corrupt salience file', () => {
  it('is read by ewp recall with one warning and rewritten without the bad lines; ewp evidence show reads it and leaves it as it is', async () => {
    const { db, hashes } = await ledgerOf('corrupt.sqlite');
    const side = `${db}.salience.jsonl`;
    expect((await run(memoryRecallCommand, 'tok3', '--db', db)).code).toBe(0);
    appendFileSync(side, 'null\n{"h":\n[]\n');
    appendFileSync(side, `{"h":"${hashes[5]}","r":{"recall_count":"many"}}\n`);
    appendFileSync(side, Buffer.from([0x7b, 0xff, 0xfe, 0x7d, 0x0a]));
    appendFileSync(side, `{"h":"${hashes[6]}","r":{"recall_count":4,"energy":4,"importance":0,"last_recalled_at":null}}\n`);
    appendFileSync(side, `{"h":"${hashes[7]}","r":{"rec`);
    const before = readFileSync(side);
    const shown = await run(memoryEvidenceCommand, 'show', hashes[6]!, '--json', '--db', db);
    expect(shown.code).toBe(0);
    expect(JSON.parse(shown.stdout).salience).toMatchObject({ recall_count: 4 });
    // Read-only: a last line without its newline may be a write under way, so only the five are counted.
    expect(shown.stderr).toMatch(/^ewp evidence: warning: skipped 5 unreadable lines of .* \(line 2: not an object\); salience is advisory\n$/);
    expect(readFileSync(side)).toEqual(before);
    const recalled = await run(memoryRecallCommand, 'tok3', '--db', db);
    expect(recalled.code).toBe(0);
    expect(recalled.stdout).toContain(hashes[3]);
    expect(recalled.stderr).toMatch(/^ewp recall: warning: skipped 6 unreadable lines of .*; salience is advisory, so they are dropped\n$/);
    // Rewritten with the two good records, then the recall's own line appended.
    expect(
      readFileSync(side, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).h),
    ).toEqual([hashes[3], hashes[6], hashes[3]]);
    const again = await run(memoryEvidenceCommand, 'show', hashes[3]!, '--json', '--db', db);
    expect(again.stderr).toBe('');
    expect(JSON.parse(again.stdout).salience).toMatchObject({ recall_count: 2 });
  }, 60_000);
});
