/**
 * `pnpm soak` (bench/run-soak.mjs bundles and runs this): the scaling runs (writers only, no kills, one
 * fresh schema each) and then the long soak (writers, readers, kills), printed and written as JSON.
 *
 *   --seconds N        the soak's length (default 300)
 *   --writers N        writer processes of the soak (default 16); --readers N (default 4)
 *   --scale LIST       writer counts of the scaling runs (default 1,2,4,8,16; `none` skips them)
 *   --scale-seconds N  length of each scaling run (default 20)
 *   --out PATH         the JSON report (run-soak.mjs passes bench/results/postgres-soak.json at the repository root)
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { defaultConnectionString } from '../src/postgres-store.js';
import { runSoak, type SoakReport } from './soak.js';

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
const run = randomBytes(4).toString('hex');
const line = (r: SoakReport) =>
  `${String(r.writers).padStart(2)} writers ${r.readers} readers ${r.seconds} s: ${r.writesPerSecond} writes/s, p50 ${r.latencyMs.p50} ms, p99 ${r.latencyMs.p99} ms, max ${r.latencyMs.max} ms; kills ${r.kills}; lost ${r.verdict.lost.length}, duplicated ${r.verdict.duplicated.length}, bad reads ${r.verdict.badReads.length} of ${r.readerViews}, chain ${r.verdict.chain.ok ? 'ok' : 'BROKEN'} (${r.verdict.chain.length}), committed unacknowledged ${r.verdict.committedUnacknowledged}, writer errors ${r.writerErrors.length}`;

const client = new pg.Client({ connectionString: defaultConnectionString() });
await client.connect();
const server = ((await client.query('SELECT version() AS v')).rows[0] as { v: string }).v;
await client.end();

const scaling: SoakReport[] = [];
if (values.scale !== 'none') {
  for (const writers of values.scale.split(',').map(Number)) {
    const r = await runSoak({
      worker,
      schema: `ewp_soak_${run}_w${writers}`,
      writers,
      readers: 0,
      seconds: Number(values['scale-seconds']),
      killEveryMs: null,
    });
    scaling.push(r);
    console.log(`scale ${line(r)}`);
  }
}
const soak = await runSoak({
  worker,
  schema: `ewp_soak_${run}`,
  writers: Number(values.writers),
  readers: Number(values.readers),
  seconds: Number(values.seconds),
});
console.log(`soak  ${line(soak)}`);
for (const problem of [...soak.writerErrors, ...soak.readerErrors, ...soak.verdict.lost, ...soak.verdict.duplicated, ...soak.verdict.badReads].slice(0, 20))
  console.log(`  ${problem}`);

const out = values.out ?? 'postgres-soak.json';
mkdirSync(dirname(out), { recursive: true });
const machine = { cpus: cpus().length, cpu: cpus()[0]?.model, loadavg: loadavg(), node: process.version, server };
writeFileSync(out, `${JSON.stringify({ machine, scaling, soak }, null, 2)}\n`);
console.log(`wrote ${out}`);
const ok = [...scaling, soak].every((r) => r.verdict.ok && r.writerErrors.length === 0 && r.readerErrors.length === 0);
process.exit(ok ? 0 : 1);
