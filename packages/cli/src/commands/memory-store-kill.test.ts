/**
 * `ewp store --supports A,B` killed with SIGKILL at random points, over a real SQLite file: the memory
 * and all its links are one commit of the store, so after every kill either the memory and every link
 * exist (the STORE and LINK events, the memory's view and the support record in each target's view) or
 * none of them does, and the chain verifies.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MemoryLedger, memoryHash } from '@ewp/memory';
import { SqliteEvidenceStore } from '@ewp/sqlite';
import { build } from 'esbuild';
import { sqliteDriverFromSources } from '../../../ledger/test-support/bundle-from-sources.mjs';
import { afterAll, describe, expect, it } from 'vitest';
import { runCaptured } from '../testing/captured-io.js';
import { memoryEvidenceCommand } from './memory-evidence.js';
import { memoryStoreCommand } from './memory-store.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'ewp-store-kill-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The CLI verb, bundled from its sources for a plain `node` child; native drivers load from their own packages. */
async function bundleDriver(): Promise<string> {
  const entry = join(dir, 'driver.ts');
  writeFileSync(
    entry,
    `import { processIO } from ${JSON.stringify(join(HERE, '..', 'cli-io.ts'))};
     import { memoryStoreCommand } from ${JSON.stringify(join(HERE, 'memory-store.ts'))};
     process.exitCode = await memoryStoreCommand(process.argv.slice(2), processIO());`,
  );
  const natives: Record<string, string> = {
    'better-sqlite3': createRequire(join(HERE, '..', '..', '..', 'sqlite', 'package.json')).resolve('better-sqlite3'),
    pg: createRequire(join(HERE, '..', '..', '..', 'postgres', 'package.json')).resolve('pg'),
  };
  const outfile = join(dir, 'bundle', 'driver.mjs');
  mkdirSync(dirname(outfile), { recursive: true });
  await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    conditions: ['@ewp/source'],
    outfile,
    logLevel: 'silent',
    // ESM output needs require for the CommonJS dependencies a bundle may hold.
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
    plugins: [
      {
        name: 'native-drivers',
        setup(b) {
          b.onResolve({ filter: /^(better-sqlite3|pg)$/ }, (args) => ({ path: natives[args.path]!, external: true }));
        },
      },
      sqliteDriverFromSources,
    ],
  });
  return outfile;
}

/** Run the driver; kill it with SIGKILL after `killAfterMs` (never, when undefined). */
async function runStore(
  driver: string,
  args: string[],
  killAfterMs?: number,
): Promise<{ code: number | null; signal: string | null; ms: number; stderr: string }> {
  const started = performance.now();
  const child = spawn(process.execPath, [driver, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (d: string) => {
    stderr += d;
  });
  const timer = killAfterMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), killAfterMs);
  const [code, signal] = (await once(child, 'exit')) as [number | null, string | null];
  clearTimeout(timer);
  return { code, signal, ms: performance.now() - started, stderr };
}

/** What the ledger holds of memory `hash` and its links to `targets`: one flag per part. */
async function partsOf(db: string, hash: string, targets: readonly string[]) {
  const store = new SqliteEvidenceStore(db);
  try {
    const entries = await store.readEntries({ subject: `mem:${hash}`, limit: 1000 });
    const parts = [entries.some((e) => e.kind === 'memory.store' && e.id === hash), (await store.get(`mem:${hash}`)) !== undefined];
    for (const t of targets) {
      parts.push(entries.some((e) => e.kind === 'memory.link' && e.id === `${hash}>${t}`));
      parts.push((await store.get(`mem:${t}`))?.evidence.some((e) => e.evidence_id === `sup:${hash}`) === true);
    }
    return { parts, chainOk: (await store.verifyChain()).ok };
  } finally {
    await store.close();
  }
}

describe('ewp store --supports under SIGKILL', () => {
  it('leaves the memory with all its links, or nothing of it, at every kill point', { timeout: 240_000 }, async () => {
    const driver = await bundleDriver();
    const db = join(dir, 'ledger.sqlite');
    const setup = new MemoryLedger(new SqliteEvidenceStore(db));
    const a = await setup.store({ text: 'The 02:00 backup of db-1 is incomplete', class: 'hypothesis', source: 'agent' });
    const b = await setup.store({ text: 'The backup volume of db-1 is nearly full', class: 'hypothesis', source: 'agent' });
    setup.close();
    await setup.evidenceStore.close();
    const targets = [a.hash, b.hash];
    const args = (i: number) => [
      `Backup log ${i}: wrote 0 of 40 GB`,
      '--class',
      'observation',
      '--source',
      `backup-log-${i}`,
      '--supports',
      targets.join(','),
      '--db',
      db,
    ];

    // One run to the end: it works, and how long it takes sets the range of kill points.
    const whole = await runStore(driver, args(0));
    expect(whole, whole.stderr).toMatchObject({ code: 0, signal: null });
    expect((await partsOf(db, memoryHash({ text: `Backup log 0: wrote 0 of 40 GB`, project: null, source: 'backup-log-0' }), targets)).parts).toEqual(
      Array(6).fill(true),
    );

    const outcomes = { all: 0, none: 0 };
    for (let i = 1; i <= 12; i += 1) {
      // Most of a run is starting node and opening the ledger: the points lie from its middle to past its end.
      const killAfter = whole.ms * (0.5 + 0.6 * Math.random());
      const run = await runStore(driver, args(i), killAfter);
      const hash = memoryHash({ text: `Backup log ${i}: wrote 0 of 40 GB`, project: null, source: `backup-log-${i}` });
      const { parts, chainOk } = await partsOf(db, hash, targets);
      expect(chainOk).toBe(true);
      // Every part, or none: never a memory without one of its links.
      expect(new Set(parts).size, `kill after ${killAfter.toFixed(0)} ms (${run.signal ?? `exit ${run.code}`}): ${JSON.stringify(parts)}`).toBe(1);
      outcomes[parts[0] ? 'all' : 'none'] += 1;
    }
    expect(outcomes.all + outcomes.none).toBe(12);
  });
});

describe('ewp store --supports A,B with a B that refuses the link', () => {
  it('exits 1 naming supports[1], and stores neither the memory nor its link to A', async () => {
    const db = ['--db', join(dir, 'refused.sqlite')];
    const run = (cmd: typeof memoryStoreCommand, ...args: string[]) => runCaptured((io) => cmd([...args, ...db], io), { cwd: dir });
    const hashOf = async (...args: string[]) => JSON.parse((await run(memoryStoreCommand, ...args, '--json')).stdout).hash as string;
    const a = await hashOf('The 02:00 backup of db-1 is incomplete', '--class', 'hypothesis');
    const b = await hashOf('The backup volume of db-1 is nearly full', '--class', 'hypothesis');
    const log = await hashOf('Backup log: wrote 0 of 40 GB', '--class', 'observation', '--source', 'backup-log');
    expect((await run(memoryEvidenceCommand, 'refute', log, b)).code).toBe(0);
    const before = (await run(memoryEvidenceCommand, 'audit')).stdout;
    const refused = await run(
      memoryStoreCommand,
      'Backup log: wrote 0 of 40 GB',
      '--class',
      'observation',
      '--source',
      'backup-log',
      '--supports',
      `${a},${b}`,
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('EWP_REFUSE_MEMORY_LINK_CONFLICT');
    expect(refused.stderr).toContain('supports[1]');
    expect((await run(memoryEvidenceCommand, 'audit')).stdout).toBe(before);
    expect(JSON.parse((await run(memoryEvidenceCommand, 'show', a, '--json')).stdout)).toMatchObject({ support_count: 0, distinct_sources: 0 });
  });
});

describe('ewp store: the reported self-support attack', () => {
  it('a paraphrase stored by the hypothesis’s own source adds no source and no confidence, and the LINK event says self_support', async () => {
    const db = ['--db', join(dir, 'self.sqlite')];
    const run = (cmd: typeof memoryStoreCommand, ...args: string[]) => runCaptured((io) => cmd([...args, ...db], io), { cwd: dir });
    const h = JSON.parse(
      (await run(memoryStoreCommand, 'The scheduler is misconfigured on every host', '--class', 'hypothesis', '--source', 'agent', '--json')).stdout,
    );
    const o = await run(
      memoryStoreCommand,
      'Every machine has a broken scheduler configuration',
      '--class',
      'observation',
      '--source',
      'agent',
      '--supports',
      h.hash,
    );
    expect(o.code).toBe(0);
    // An echo too with a measure that sees the paraphrase (then that is what the line names); either way no new source.
    expect(o.stdout).toMatch(new RegExp(`supports ${h.hash}: .*\\(no new source\\); its confidence 0, distinct sources 0`));
    const audit = JSON.parse((await run(memoryEvidenceCommand, 'audit', h.hash, '--json')).stdout) as {
      events: { kind: string; body: Record<string, unknown> }[];
    };
    expect(audit.events.filter((e) => e.kind === 'memory.link').map((e) => e.body.self_support)).toEqual([true]);
    expect((await run(memoryEvidenceCommand, 'show', h.hash)).stdout).toContain('distinct sources 0, echoes');
  });
});
