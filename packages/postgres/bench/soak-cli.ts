/**
 * `pnpm soak` (bench/run-soak.mjs bundles and runs this): the scaling runs (writers only, no kills, one
 * fresh schema each) and then the long soak (writers, readers, kills), printed and written as JSON.
 *
 *   --seconds N        the soak's length (default 300)
 *   --writers N        writer processes of the soak (default 16); --readers N (default 4)
 *   --scale LIST       writer counts of the scaling runs (default 1,2,4,8,16; `none` skips them)
 *   --scale-seconds N  length of each scaling run (default 20)
 *   --out PATH         the JSON report (run-soak.mjs passes bench/results/postgres-soak.json at the repository root)
 *
 * The database is the store's default (DATABASE_URL, else the PG* variables, else 127.0.0.1:5432 db `test`);
 * it is printed first. Exit 1 when any run lost, duplicated or misread anything, when a process failed, or
 * when a run measured nothing (no write acknowledged: see `failures` in the report).
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { defaultConnectionString } from '../src/postgres-store.js';
import { runSoak, type SoakReport, soakNumber } from './soak.js';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '300' },
    writers: { type: 'string', default: '16' },
    readers: { type: 'string', default: '4' },
    scale: { type: 'string', default: '1,2,4,8,16' },
    'scale-seconds': { type: 'string', default: '20' },
    out: { type: 'string' },
    worker: { type: 'string' },
  },
});
const worker = values.worker ?? process.env.EWP_SOAK_WORKER;
if (worker === undefined) throw new Error('soak-cli: --worker (the bundled soak-worker) is required; run it through bench/run-soak.mjs');
// Every number is checked before anything runs: `Number('20s')` is NaN, and a NaN window used to give a
// run that acknowledged no write yet passed every check.
const flag = (name: 'seconds' | 'writers' | 'readers' | 'scale-seconds', min: number, integer = true) =>
  soakNumber(`--${name}`, Number(values[name]), min, integer);
const seconds = flag('seconds', 1, false);
const writers = flag('writers', 1);
const readers = flag('readers', 0);
const scaleSeconds = flag('scale-seconds', 1, false);
const scale = values.scale === 'none' ? [] : values.scale.split(',').map((n) => soakNumber('--scale', Number(n), 1));
const run = randomBytes(4).toString('hex');
const line = (r: SoakReport) =>
  `${String(r.writers).padStart(2)} writers ${r.readers} readers ${r.seconds} s: ${r.writesPerSecond} writes/s, p50 ${r.latencyMs.p50} ms, p99 ${r.latencyMs.p99} ms, max ${r.latencyMs.max} ms; kills ${r.kills}; lost ${r.verdict.lost.length}, duplicated ${r.verdict.duplicated.length}, bad reads ${r.verdict.badReads.length} of ${r.readerViews}, chain ${r.verdict.chain.ok ? 'ok' : 'BROKEN'} (${r.verdict.chain.length}), committed unacknowledged ${r.verdict.committedUnacknowledged}, writer errors ${r.writerErrors.length}${r.failures.length > 0 ? `; FAILED: ${r.failures.join('; ')}` : ''}`;

const target = new URL(defaultConnectionString());
const database = `${target.hostname}:${target.port || '5432'}${target.pathname}`;
console.log(`database ${database} (user ${decodeURIComponent(target.username) || '(default)'}), schemas ewp_soak_${run}*`);
const client = new pg.Client({ connectionString: defaultConnectionString() });
await client.connect();
const server = ((await client.query('SELECT version() AS v')).rows[0] as { v: string }).v;
await client.end();

const scaling: SoakReport[] = [];
for (const n of scale) {
  const r = await runSoak({ worker, schema: `ewp_soak_${run}_w${n}`, writers: n, readers: 0, seconds: scaleSeconds, killEveryMs: null });
  scaling.push(r);
  console.log(`scale ${line(r)}`);
}
const soak = await runSoak({ worker, schema: `ewp_soak_${run}`, writers, readers, seconds });
console.log(`soak  ${line(soak)}`);
for (const problem of [
  ...scaling.flatMap((r) => [...r.failures, ...r.writerErrors]),
  ...soak.failures,
  ...soak.writerErrors,
  ...soak.readerErrors,
  ...soak.verdict.lost,
  ...soak.verdict.duplicated,
  ...soak.verdict.badReads,
].slice(0, 20))
  console.log(`  ${problem}`);

const out = values.out ?? 'postgres-soak.json';
mkdirSync(dirname(out), { recursive: true });
const machine = { cpus: cpus().length, cpu: cpus()[0]?.model, loadavg: loadavg(), node: process.version, server, database };
writeFileSync(out, `${JSON.stringify({ machine, scaling, soak }, null, 2)}\n`);
console.log(`wrote ${out}`);
const ok = [...scaling, soak].every((r) => r.verdict.ok && r.writerErrors.length === 0 && r.readerErrors.length === 0 && r.failures.length === 0);
if (!ok) console.error('soak FAILED: see the lines above');
process.exit(ok ? 0 : 1);
