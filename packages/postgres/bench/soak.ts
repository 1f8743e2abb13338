/**
 * The many-writer soak on one PostgreSQL ledger: writer and reader processes (bench/soak-worker.ts)
 * for a bounded time, a writer killed with SIGKILL now and then and restarted, then the checks of
 * bench/soak-checks.ts. Used by the short test (test/postgres-soak.test.ts) and by `pnpm soak`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { InvalidArgumentError } from '@ewp/core';
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
  /** How long processes may run past the window before they count as hung and are killed (default 120,000 ms). */
  graceMs?: number;
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
  /**
   * What makes the run itself unfit to report (must be empty): no write acknowledged, a writer of a run
   * without kills that never wrote, readers that read nothing. A run that measured nothing is not a pass.
   */
  failures: string[];
}

interface Proc {
  child: ChildProcess;
  /** Resolves once the process has opened its store. */
  ready: Promise<void>;
  exit: Promise<number | null>;
  killed: boolean;
  /** Killed because it was still running long after the window closed. */
  hung: boolean;
  /** Lines of work (acknowledgements or reads) this process printed. */
  lines: number;
  /** The count of its closing `done` line; `undefined` if it never printed one. */
  done: number | undefined;
  stderr: string;
}

/**
 * `value` as a soak setting: a finite number, at least `min`, whole if `integer`. The CLI passes its flag
 * names, so `--scale-seconds 20s` is refused before anything runs instead of yielding a run of no writes.
 */
export function soakNumber(name: string, value: number, min: number, integer = true): number {
  if (!Number.isFinite(value) || value < min || (integer && !Number.isInteger(value)))
    throw new InvalidArgumentError(name, `${name} must be ${integer ? 'a whole number' : 'a number'} of at least ${min}, got ${value}`);
  return value;
}

function start(worker: string, args: string[], onLine: (fields: string[]) => void): Proc {
  const child = spawn(process.execPath, [worker, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  let ready: () => void = () => undefined;
  const proc: Proc = {
    child,
    ready: new Promise<void>((resolve) => (ready = resolve)),
    exit: Promise.resolve(null),
    killed: false,
    hung: false,
    lines: 0,
    done: undefined,
    stderr: '',
  };
  // Whole lines only: a line a killed process left unfinished lacks its closing `.` field and is dropped.
  const lines = createInterface({ input: child.stdout as NonNullable<ChildProcess['stdout']> });
  lines.on('line', (line) => {
    const fields = line.split('\t');
    if (fields.at(-1) !== '.') return;
    if (fields[0] === 'ready') ready();
    else if (fields[0] === 'done') proc.done = Number(fields[1]);
    else {
      proc.lines += 1;
      onLine(fields.slice(0, -1));
    }
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
  soakNumber('writers', options.writers, 1);
  soakNumber('readers', options.readers, 0);
  soakNumber('seconds', options.seconds, 1, false);
  const propositions = soakNumber('propositions', options.propositions ?? 8, 1);
  const graceMs = soakNumber('graceMs', options.graceMs ?? 120_000, 0);
  const seed = await openPostgresStore({ schema: options.schema, maxConnections: 1 });
  for (let p = 0; p < propositions; p += 1) await seed.put(seedView(`P-${p}`));
  await seed.close();

  const acks: Ack[] = [];
  const sights: ReaderSight[] = [];
  const writerErrors: string[] = [];
  const readerErrors: string[] = [];
  const failures: string[] = [];
  /** Acknowledged writes by writer slot (all its generations). */
  const perWriter = new Map<number, number>();
  let until = Number.POSITIVE_INFINITY;
  const go = (proc: Proc) => proc.child.stdin?.end(`go ${until}\n`);
  const running = new Map<number, Proc>();
  const exits: Promise<unknown>[] = [];
  let kills = 0;
  let lastAck = 0;
  let restarts = 0;

  const onAck = (w: number) => (fields: string[]) => {
    const [, op, pid, viewId, recordId, entryId, micros] = fields as [string, string, string, string, string, string, string];
    acks.push({ op, pid, viewId, recordId, entryId, micros: Number(micros) });
    perWriter.set(w, (perWriter.get(w) ?? 0) + 1);
    lastAck = Date.now();
  };
  /** A process that exited 0 must have printed its closing line with the count of lines we received. */
  const closing = (proc: Proc, name: string): string | undefined => {
    if (proc.done === undefined) return `${name} exited 0 without its closing line (its output was lost)`;
    if (proc.done !== proc.lines) return `${name} printed ${proc.done} lines, ${proc.lines} arrived`;
    return undefined;
  };
  const hung = (name: string) => `${name} still ran ${graceMs} ms after the window closed and was killed (a write or read blocked: a lock?)`;
  const startWriter = (w: number, generation: number) => {
    const proc = start(options.worker, ['writer', options.schema, String(w), String(generation), String(propositions)], onAck(w));
    running.set(w, proc);
    exits.push(
      proc.exit.then((code) => {
        const name = `writer ${w} generation ${generation}`;
        if (proc.killed && !proc.hung) return;
        const problem = proc.hung ? hung(name) : code === 0 ? closing(proc, name) : `${name} exited ${code}: ${proc.stderr.trim()}`;
        if (problem !== undefined) writerErrors.push(problem);
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
    exits.push(
      proc.exit.then((code) => {
        const name = `reader ${r}`;
        const problem = proc.hung ? hung(name) : code === 0 ? closing(proc, name) : `${name} exited ${code}: ${proc.stderr.trim()}`;
        if (problem !== undefined) readerErrors.push(problem);
      }),
    );
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
  // Restarted writers push their exits while we wait, so wait until no new ones appear. A process still
  // running long after the window is stuck (a write that never gets the lock would otherwise hang the run).
  const watchdog = setTimeout(
    () => {
      for (const proc of [...running.values(), ...readers]) {
        if (proc.child.exitCode !== null || proc.child.signalCode !== null) continue;
        proc.hung = true;
        proc.killed = true;
        proc.child.kill('SIGKILL');
      }
    },
    Math.max(0, until - Date.now()) + graceMs,
  );
  for (let seen = 0; seen < exits.length; ) {
    const batch = exits.slice(seen);
    seen = exits.length;
    await Promise.all(batch);
  }
  clearTimeout(watchdog);
  if (acks.length === 0) failures.push(`no write was acknowledged in ${options.seconds} s by ${options.writers} writers`);
  // Without kills every writer gets the whole window and prints each write it finishes, the first included.
  if (range === null)
    for (let w = 0; w < options.writers; w += 1) if ((perWriter.get(w) ?? 0) === 0) failures.push(`writer ${w} acknowledged no write in ${options.seconds} s`);
  if (options.readers > 0 && sights.length === 0) failures.push(`no read by ${options.readers} readers in ${options.seconds} s`);
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
    failures,
  };
}
