/**
 * The many-writer soak on one PostgreSQL ledger: writer and reader processes (bench/soak-worker.ts)
 * for a bounded time, a writer killed with SIGKILL now and then and restarted, then the checks of
 * bench/soak-checks.ts. Used by the short test (test/postgres-soak.test.ts) and by `pnpm soak`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { seedView } from '../../ledger/test-support/fault-views.js';
import { dropPostgresLedger, openPostgresStore } from '../src/postgres-store.js';
import { type Ack, checkSoak, type ReaderSight, type SoakVerdict } from './soak-checks.js';

export interface SoakOptions {
  /** The bundled soak-worker.ts. */
  worker: string;
  /** A fresh schema of its own; dropped afterwards unless `keep`. */
  schema: string;
  writers: number;
  readers: number;
  seconds: number;
  /** Shared propositions every writer writes to (default 8). */
  propositions?: number;
  /** Milliseconds between two kills, drawn uniformly from this range; `null`: no kills. */
  killEveryMs?: readonly [number, number] | null;
  keep?: boolean;
}

export interface SoakReport {
  writers: number;
  readers: number;
  seconds: number;
  /** Acknowledged writes by operation. */
  acknowledged: Record<string, number>;
  writesPerSecond: number;
  /** Commit latency as the writer saw it (call to resolved), milliseconds. */
  latencyMs: { p50: number; p99: number; max: number };
  kills: number;
  restarts: number;
  /** Writer processes that exited with an error on their own (must be 0). */
  writerErrors: string[];
  readerErrors: string[];
  readerViews: number;
  verdict: SoakVerdict;
}

interface Proc {
  child: ChildProcess;
  /** Resolves once the process has opened its store. */
  ready: Promise<void>;
  exit: Promise<number | null>;
  killed: boolean;
  stderr: string;
}

function start(worker: string, args: string[], onLine: (fields: string[]) => void): Proc {
  const child = spawn(process.execPath, [worker, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  let ready: () => void = () => undefined;
  const proc: Proc = { child, ready: new Promise<void>((resolve) => (ready = resolve)), exit: Promise.resolve(null), killed: false, stderr: '' };
  // Whole lines only: a line a killed process left unfinished lacks its closing `.` field and is dropped.
  const lines = createInterface({ input: child.stdout as NonNullable<ChildProcess['stdout']> });
  lines.on('line', (line) => {
    const fields = line.split('\t');
    if (fields.at(-1) !== '.') return;
    if (fields[0] === 'ready') ready();
    else onLine(fields.slice(0, -1));
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    proc.stderr += chunk;
  });
  const closed = new Promise<void>((resolve) => lines.on('close', resolve));
  proc.exit = new Promise((resolve) =>
    child.on('exit', (code) => {
      ready();
      void closed.then(() => resolve(code));
    }),
  );
  return proc;
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

/** Run one soak and check it; the schema is created fresh and dropped afterwards. */
export async function runSoak(options: SoakOptions): Promise<SoakReport> {
  const propositions = options.propositions ?? 8;
  const seed = await openPostgresStore({ schema: options.schema, maxConnections: 1 });
  for (let p = 0; p < propositions; p += 1) await seed.put(seedView(`P-${p}`));
  await seed.close();

  const acks: Ack[] = [];
  const sights: ReaderSight[] = [];
  const writerErrors: string[] = [];
  const readerErrors: string[] = [];
  let until = Number.POSITIVE_INFINITY;
  const go = (proc: Proc) => proc.child.stdin?.end(`go ${until}\n`);
  const running = new Map<number, Proc>();
  const exits: Promise<unknown>[] = [];
  let kills = 0;
  let lastAck = 0;
  let restarts = 0;

  const onAck = (fields: string[]) => {
    const [, op, pid, viewId, recordId, entryId, micros] = fields as [string, string, string, string, string, string, string];
    acks.push({ op, pid, viewId, recordId, entryId, micros: Number(micros) });
    lastAck = Date.now();
  };
  const startWriter = (w: number, generation: number) => {
    const proc = start(options.worker, ['writer', options.schema, String(w), String(generation), String(propositions)], onAck);
    running.set(w, proc);
    exits.push(
      proc.exit.then((code) => {
        if (!proc.killed && code !== 0) writerErrors.push(`writer ${w} generation ${generation} exited ${code}: ${proc.stderr.trim()}`);
      }),
    );
  };
  const readers: Proc[] = [];
  for (let w = 0; w < options.writers; w += 1) startWriter(w, 0);
  for (let r = 0; r < options.readers; r += 1) {
    const proc = start(options.worker, ['reader', options.schema, String(r), String(propositions)], (f) => {
      sights.push({ reader: f[1] as string, pid: f[2] as string, viewId: f[3] as string, digest: f[4] as string, revision: Number(f[5]) });
    });
    readers.push(proc);
    exits.push(proc.exit.then((code) => code !== 0 && readerErrors.push(`reader ${r} exited ${code}: ${proc.stderr.trim()}`)));
  }
  // The clock starts once every process has connected: start-up is not what is measured.
  const everyone = [...running.values(), ...readers];
  await Promise.all(everyone.map((p) => p.ready));
  const began = Date.now();
  until = began + options.seconds * 1000;
  for (const proc of everyone) go(proc);

  // The killer: a random writer, SIGKILL, restarted at once as a new generation.
  const generations = new Map<number, number>();
  const range = options.killEveryMs === undefined ? ([2000, 5000] as const) : options.killEveryMs;
  while (range !== null) {
    const wait = range[0] + Math.random() * (range[1] - range[0]);
    if (Date.now() + wait > until - 500) break;
    await new Promise((r) => setTimeout(r, wait));
    const w = Math.floor(Math.random() * options.writers);
    const victim = running.get(w) as Proc;
    victim.killed = true;
    victim.child.kill('SIGKILL');
    kills += 1;
    await victim.exit;
    const generation = (generations.get(w) ?? 0) + 1;
    generations.set(w, generation);
    startWriter(w, generation);
    go(running.get(w) as Proc);
    restarts += 1;
  }
  // Restarted writers push their exits while we wait, so wait until no new ones appear.
  for (let seen = 0; seen < exits.length; ) {
    const batch = exits.slice(seen);
    seen = exits.length;
    await Promise.all(batch);
  }
  // Throughput over the window the writers wrote in (up to the last acknowledgement).
  const elapsed = (Math.max(lastAck, until) - began) / 1000;

  const verdict = await checkSoak(options.schema, propositions, acks, sights);
  if (!options.keep) await dropPostgresLedger(options.schema);

  const latencies = acks.map((a) => a.micros / 1000).sort((a, b) => a - b);
  const acknowledged: Record<string, number> = {};
  for (const a of acks) acknowledged[a.op] = (acknowledged[a.op] ?? 0) + 1;
  const round = (x: number) => Math.round(x * 10) / 10;
  return {
    writers: options.writers,
    readers: options.readers,
    seconds: round(elapsed),
    acknowledged,
    writesPerSecond: round(acks.length / elapsed),
    latencyMs: { p50: round(percentile(latencies, 50)), p99: round(percentile(latencies, 99)), max: round(latencies.at(-1) ?? 0) },
    kills,
    restarts,
    writerErrors,
    readerErrors,
    readerViews: sights.length,
    verdict,
  };
}
