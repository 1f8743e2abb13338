/**
 * Reads of stores on the commit-record protocol (LangGraph BaseStore, Mem0 OSS and hosted, Zep) as a
 * proposition's history grows: `get` of a proposition with SHORT snapshots against one with LONG, both
 * in the same store (so the store's own size is the same for both), in the same run. Committed ingests
 * never change, so a reader keeps what it decoded and lists only what commits after it; the goal is a
 * LONG-snapshot read within 2x of a SHORT one.
 *
 * Three reads, each the median of its samples:
 * - warm: the same reader again, nothing committed since;
 * - after a commit: another writer (its own adapter instance over the same store, as another process)
 *   commits a new snapshot of the proposition, then the reader reads it;
 * - cold: a new reader's first read (lists the proposition's whole history: it grows, and says so).
 * SQLite is measured alongside as the indexed reference.
 *
 * Usage: node bench/history-reads.mjs   (EWP_BENCH_QUICK=1: LONG=200)
 * Results: <repo>/bench/results/history-reads.json
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BaseStoreLedger } from '@ewp/langchain';
import type { EvidenceStore } from '@ewp/ledger';
import { type HostedClientLike, mem0Adapter, mem0HostedAdapter } from '@ewp/mem0';
import { offlineMemory, startMem0RestServer } from '@ewp/mem0-testing';
import { SqliteEvidenceStore } from '@ewp/sqlite';
import { ZepAdapter } from '@ewp/zep';
import { startZepGraphServer } from '@ewp/zep-testing';
import { ZepClient } from '@getzep/zep-cloud';
import { InMemoryStore } from '@langchain/langgraph';
import { MemoryClient } from 'mem0ai';
import { QUICK, REPO, writeResults } from '../../../bench/machine.mjs';

const SHORT = 10;
const LONG = QUICK ? 200 : 1000;
const SAMPLES = QUICK ? 5 : 15;

/** Two adapter instances over one backing store (a writer and a reader, as two processes), and a way to make a fresh reader. */
interface Subject {
  name: string;
  open(): Promise<{ writer: EvidenceStore; reader: () => EvidenceStore; close(): Promise<void> }>;
}

const fixture = JSON.parse(readFileSync(`${REPO}conformance/pack/fixtures/08-verified-now.json`, 'utf8')) as Record<string, unknown>;
let written = 0;
/** A snapshot of `pid`: the same small view under a new view id each time. */
const view = (pid: string) => {
  written += 1;
  const v = structuredClone(fixture) as {
    proposition_id: string;
    view_id: string;
    assertions: { proposition_id: string }[];
    evidence: { proposition_id: string }[];
  };
  v.proposition_id = pid;
  v.view_id = `v-${written}`;
  for (const a of v.assertions) a.proposition_id = pid;
  for (const e of v.evidence) e.proposition_id = pid;
  return v;
};

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

const scratch: string[] = [];
const dir = (prefix: string) => {
  const d = mkdtempSync(join(tmpdir(), `ewp-history-${prefix}-`));
  scratch.push(d);
  return d;
};

const subjects: Subject[] = [
  {
    name: 'sqlite (indexed reference)',
    async open() {
      const path = join(dir('sqlite'), 'ewp.sqlite');
      const writer = new SqliteEvidenceStore(path);
      return { writer, reader: () => new SqliteEvidenceStore(path), close: () => writer.close() };
    },
  },
  {
    name: 'langgraph-basestore',
    async open() {
      const backing = new InMemoryStore();
      return { writer: new BaseStoreLedger(backing), reader: () => new BaseStoreLedger(backing), close: async () => {} };
    },
  },
  {
    name: 'mem0-oss',
    async open() {
      const memory = await offlineMemory(join(dir('mem0'), 'mem'));
      return { writer: mem0Adapter(memory, { userId: 'history' }), reader: () => mem0Adapter(memory, { userId: 'history' }), close: async () => {} };
    },
  },
  {
    name: 'mem0-hosted',
    async open() {
      const server = await startMem0RestServer({ processingDelayMs: 0 });
      const client = new MemoryClient({ apiKey: server.apiKey, host: server.url }) as unknown as HostedClientLike;
      return {
        writer: mem0HostedAdapter(client, { userId: 'history' }),
        reader: () => mem0HostedAdapter(client, { userId: 'history' }),
        close: () => server.close(),
      };
    },
  },
  {
    name: 'zep',
    async open() {
      const server = await startZepGraphServer({ processingDelayMs: 0 });
      const client = new ZepClient({ apiKey: server.apiKey, baseUrl: server.baseUrl });
      await client.graph.create({ graphId: 'history' });
      return {
        writer: new ZepAdapter({ client, graphId: 'history' }),
        reader: () => new ZepAdapter({ client, graphId: 'history' }),
        close: () => server.close(),
      };
    },
  },
];

const only = process.argv.slice(2);
const rows = [];
for (const subject of subjects.filter((s) => only.length === 0 || only.includes(s.name.split(' ')[0] as string))) {
  const started = performance.now();
  const { writer, reader, close } = await subject.open();
  const figures: Record<string, Record<string, number>> = {};
  const cases = [
    ['short', 'P-short', SHORT],
    ['long', 'P-long', LONG],
  ] as const;
  for (const [label, pid, snapshots] of cases) {
    for (let i = 0; i < snapshots; i += 1) await writer.put(view(pid));
    process.stderr.write(`  ${subject.name}: ${label} history (${snapshots} snapshots) written at ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
  }
  for (const [label, pid, snapshots] of cases) {
    const r = reader();
    const cold = await timed(() => r.get(pid));
    const warm: number[] = [];
    for (let i = 0; i < SAMPLES; i += 1) warm.push(await timed(() => r.get(pid)));
    const afterCommit: number[] = [];
    for (let i = 0; i < SAMPLES; i += 1) {
      await writer.put(view(pid));
      afterCommit.push(await timed(() => r.get(pid)));
    }
    await r.close();
    figures[label] = { snapshots: snapshots + SAMPLES, cold_ms: cold, warm_ms: median(warm), after_commit_ms: median(afterCommit) };
  }
  await writer.close();
  await close();
  const s = figures.short as Record<string, number>;
  const l = figures.long as Record<string, number>;
  rows.push({
    store: subject.name,
    short: s,
    long: l,
    ratio_warm: l.warm_ms / s.warm_ms,
    ratio_after_commit: l.after_commit_ms / s.after_commit_ms,
    ratio_cold: l.cold_ms / s.cold_ms,
  });
}
for (const d of scratch) rmSync(d, { recursive: true, force: true });

const fmt = (x: number) => x.toFixed(2);
console.log(`reads at ${SHORT} vs ${LONG} snapshots of one proposition (median of ${SAMPLES}; ms; ratio long/short)`);
console.table(
  rows.map((r) => ({
    store: r.store,
    'warm short': fmt(r.short.warm_ms as number),
    'warm long': fmt(r.long.warm_ms as number),
    'warm x': fmt(r.ratio_warm),
    'after commit short': fmt(r.short.after_commit_ms as number),
    'after commit long': fmt(r.long.after_commit_ms as number),
    'after commit x': fmt(r.ratio_after_commit),
    'cold x': fmt(r.ratio_cold),
  })),
);
console.log(`wrote ${writeResults('history-reads', { short: SHORT, long: LONG, samples: SAMPLES, rows })}`);
