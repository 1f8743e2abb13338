import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type EvidenceStore, MemoryEvidenceStore } from '@ewp/ledger';
import { SqliteEvidenceStore } from '@ewp/sqlite';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { type GateCall, decideGate } from '../gate-decision.js';
import type { GateAction } from '../gate-options.js';
import { DecisionError } from './decision-error.js';
import { decisionHistory, listDecisions, verifyDecision } from './decision-store.js';
import { DECISION_ENTRY_KINDS } from './entry-kinds.js';
import { callClaimId, type GuardedRun, runDecision, runGuarded } from './run-guarded.js';

const verified = JSON.parse(
  readFileSync(fileURLToPath(new URL('../../../../conformance/pack/fixtures/08-verified-now.json', import.meta.url)), 'utf8'),
) as Record<string, unknown>;
/** P-win, verified by check k1 (ACCEPTED, CURRENT at T). */
const T = new Date('2026-09-21T21:00:00Z');
/** A clock `minutes` after T: each run decides at its own time, so each makes a decision of its own. */
/** A call of the `test` gate that names no call id (each test maps its own, or none). */
const call: GateCall = { gate: 'test', tool: 'restart', callId: undefined };
const at = (minutes: number) => () => new Date(T.getTime() + minutes * 60_000);
const restart: GateAction = { id: 'restart-server01', kind: 'restart', risk: 'high', reversible: false };
/** Medium risk on a degraded retrieval: REQUIRE_CONFIRMATION. */
const confirmable: GateAction = { id: 'restart-server01', kind: 'restart', risk: 'medium', reversible: true };

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
function sqlitePath(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ewp-once-per-call-'));
  dirs.push(dir);
  return join(dir, 'ledger.sqlite');
}

/** A new ledger with P-win verified. */
type Ledger = { store: EvidenceStore; close: () => Promise<void> };
const ledgers: [string, () => Promise<Ledger>][] = [
  [
    'memory',
    async () => {
      const store = new MemoryEvidenceStore();
      await store.put(verified);
      return { store, close: () => store.close() };
    },
  ],
  [
    'sqlite file',
    async () => {
      const store = new SqliteEvidenceStore(sqlitePath());
      await store.put(verified);
      return { store, close: () => store.close() };
    },
  ],
];

const isNotExecutable = (e: unknown) => DecisionError.isInstance(e) && e.code === 'EWP_REFUSE_DECISION_NOT_EXECUTABLE';

describe.each(ledgers)('a framework call executes once across its decisions, on the %s store', (_name, open) => {
  it('the same call id decided and run twice: the second run is refused with a typed error, recorded, and nothing runs', async () => {
    const { store, close } = await open();
    const ran: string[] = [];
    const gate = { store, proposition: 'P-win', action: restart, record: { gate: 'test' }, callId: () => 'call-1' };
    const first = await runGuarded({ ...gate, now: at(0) }, { server: 'server01' }, call, () => ran.push('first'));
    expect(first.status).toBe('executed');
    // A replay decides again (a new decision, at a later T) and names the same call.
    const replay = runGuarded({ ...gate, now: at(1) }, { server: 'server01' }, call, () => ran.push('replay'));
    const refused = await replay.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isNotExecutable(refused)).toBe(true);
    expect(ran).toEqual(['first']);
    const second = (refused as DecisionError).decisionId as string;
    expect(second).not.toBe(first.decisionId);
    expect((refused as DecisionError).message).toContain(`was already executed under decision ${first.decisionId}`);
    // The ledger: one call claim, naming the decision that ran; the replay's decision has no
    // execution claim (its write was refused whole) and its refusal as its outcome.
    const claims = await store.readEntries({ kind: DECISION_ENTRY_KINDS.call });
    expect(claims).toMatchObject([{ id: callClaimId('test', 'call-1'), body: { gate: 'test', call_id: 'call-1', decision_id: first.decisionId } }]);
    expect(await decisionHistory(store, second)).toMatchObject({
      decision: { record: { gate: 'test', call_id: 'call-1', decision: 'MAY_ACT' } },
      execution: null,
      outcome: { body: { status: 'call_already_executed', error: expect.stringContaining(first.decisionId as string) } },
    });
    expect(await verifyDecision(store, second)).toMatchObject({ ok: true });
    expect((await store.verifyChain()).ok).toBe(true);
    await close();
  });

  it('an approved call resumed twice: both confirmations are recorded, the call runs once', async () => {
    const { store, close } = await open();
    await store.put({ ...verified, view_id: 'v-deg', degraded: true });
    const ran: string[] = [];
    const approved = {
      store,
      proposition: 'P-win',
      action: confirmable,
      record: { gate: 'test' },
      callId: () => 'call-7',
      confirm: () => ({ confirmedBy: 'alice' }),
    };
    const first = await runGuarded({ ...approved, now: at(0) }, {}, call, () => ran.push('resume 1'));
    expect(first).toMatchObject({ status: 'executed', decision: { decision: 'REQUIRE_CONFIRMATION' } });
    await expect(runGuarded({ ...approved, now: at(5) }, {}, call, () => ran.push('resume 2'))).rejects.toSatisfy(isNotExecutable);
    expect(ran).toEqual(['resume 1']);
    const histories = await Promise.all((await listDecisions(store, { proposition: 'P-win' })).map((d) => decisionHistory(store, d.decision_id)));
    expect(histories.map((h) => [h.confirmation?.body.confirmed_by, h.execution === null ? 'not claimed' : 'claimed', h.outcome?.body.status])).toEqual([
      ['alice', 'claimed', 'succeeded'],
      ['alice', 'not claimed', 'call_already_executed'],
    ]);
    await close();
  });

  it('concurrent runs of one call: exactly one executes, the others are refused', async () => {
    const { store, close } = await open();
    let executed = 0;
    const runs = Array.from({ length: 6 }, (_, i) =>
      runGuarded({ store, proposition: 'P-win', action: restart, now: at(i) }, { server: 'server01' }, { ...call, callId: 'call-race' }, async () => {
        executed += 1;
        // Hold the execution open: the other runs claim meanwhile.
        await new Promise((resolve) => setTimeout(resolve, 20));
        return 'restarted';
      }),
    );
    const settled = await Promise.allSettled(runs);
    expect(executed).toBe(1);
    const fulfilled = settled.filter((s): s is PromiseFulfilledResult<GuardedRun<string>> => s.status === 'fulfilled');
    expect(fulfilled.map((s) => s.value.status)).toEqual(['executed']);
    const rejected = settled.filter((s): s is PromiseRejectedResult => s.status === 'rejected');
    expect(rejected).toHaveLength(5);
    for (const r of rejected) expect(isNotExecutable(r.reason)).toBe(true);
    const claims = await store.readEntries({ kind: DECISION_ENTRY_KINDS.call });
    expect(claims.map((c) => c.body.decision_id)).toEqual([fulfilled[0]?.value.decisionId]);
    expect((await store.readEntries({ kind: DECISION_ENTRY_KINDS.outcome })).map((e) => e.body.status).sort()).toEqual([
      'call_already_executed',
      'call_already_executed',
      'call_already_executed',
      'call_already_executed',
      'call_already_executed',
      'succeeded',
    ]);
    expect((await store.verifyChain()).ok).toBe(true);
    await close();
  });

  it('different call ids, and one call id under two gates, each run once', async () => {
    const { store, close } = await open();
    const ran: string[] = [];
    const run = (gate: string, callId: string, minutes: number) =>
      runGuarded({ store, proposition: 'P-win', action: restart, now: at(minutes), record: { gate }, callId: () => callId }, {}, call, () =>
        ran.push(`${gate}/${callId}`),
      );
    await run('ai-sdk', 'call-1', 0);
    await run('ai-sdk', 'call-2', 1);
    await run('langchain', 'call-1', 2);
    expect(ran).toEqual(['ai-sdk/call-1', 'ai-sdk/call-2', 'langchain/call-1']);
    await expect(run('ai-sdk', 'call-2', 3)).rejects.toSatisfy(isNotExecutable);
    expect(ran).toHaveLength(3);
    await close();
  });

  it('without a call id, a run is guarded per decision as before: every decision runs once, and no call is claimed', async () => {
    const { store, close } = await open();
    let ran = 0;
    const runs: GuardedRun<number>[] = [];
    for (const minutes of [0, 1, 2]) runs.push(await runGuarded({ store, proposition: 'P-win', action: restart, now: at(minutes) }, {}, call, () => ++ran));
    expect(ran).toBe(3);
    expect(await store.readEntries({ kind: DECISION_ENTRY_KINDS.call })).toEqual([]);
    // The decision itself still runs once.
    await expect(runDecision(store, runs[0]?.decisionId as string, {}, () => ++ran)).rejects.toSatisfy(isNotExecutable);
    expect(ran).toBe(3);
    await close();
  });

  it('runDecision claims the call its decision records: a decision made on a call another decision ran does not run', async () => {
    const { store, close } = await open();
    let ran = 0;
    const gate = { store, proposition: 'P-win', action: restart, record: { gate: 'test' }, callId: () => 'call-9' };
    // Decided when proposed (recorded, not run), then run by a guarded run that decides again.
    const proposed = await decideGate({ ...gate, now: at(0) }, {}, call);
    await runGuarded({ ...gate, now: at(1) }, {}, call, () => ++ran);
    await expect(runDecision(store, proposed.decisionId as string, {}, () => ++ran)).rejects.toSatisfy(isNotExecutable);
    expect(ran).toBe(1);
    expect((await decisionHistory(store, proposed.decisionId as string)).outcome?.body.status).toBe('call_already_executed');
    // A decision whose call nobody ran runs once through runDecision.
    const other = await decideGate({ ...gate, callId: () => 'call-10', now: at(2) }, {}, call);
    expect(await runDecision(store, other.decisionId as string, {}, () => ++ran)).toMatchObject({ status: 'executed', result: 2 });
    await close();
  });
});

describe("the binding's call: gate name and call id", () => {
  it("records the call's gate and id unless the options name their own; record: false writes nothing", async () => {
    const store = new MemoryEvidenceStore();
    await store.put(verified);
    const base = { store, proposition: 'P-win', action: restart };
    const bound: GateCall = { gate: 'ai-sdk', tool: 'restart', callId: 'call-1' };
    const recordOf = async (id: string | null) => (await decisionHistory(store, id as string)).decision.record;
    // The binding's call names the record.
    const named = await decideGate({ ...base, now: at(0) }, {}, bound);
    expect(await recordOf(named.decisionId)).toMatchObject({ gate: 'ai-sdk', call_id: 'call-1' });
    // The caller's record.gate and callId win over the binding's.
    const own = await decideGate({ ...base, now: at(1), record: { gate: 'ops-bot' }, callId: (input: { n: number }) => `mine-${input.n}` }, { n: 3 }, bound);
    expect(await recordOf(own.decisionId)).toMatchObject({ gate: 'ops-bot', call_id: 'mine-3' });
    // No call id from the framework: a random one, different for each decision.
    const anonymous = await decideGate({ ...base, now: at(2) }, {}, { ...bound, callId: undefined });
    const again = await decideGate({ ...base, now: at(3) }, {}, { ...bound, callId: undefined });
    const [a, b] = [await recordOf(anonymous.decisionId), await recordOf(again.decisionId)];
    expect(a.gate).toBe('ai-sdk');
    expect(a.call_id).not.toBe(b.call_id);
    // A model that reuses call ids across separate calls: the caller opts out, runs stay once per decision.
    let ran = 0;
    const optOut = { ...base, callId: () => undefined };
    await runGuarded({ ...optOut, now: at(4) }, {}, bound, () => ++ran);
    await runGuarded({ ...optOut, now: at(5) }, {}, bound, () => ++ran);
    expect(ran).toBe(2);
    expect(await store.readEntries({ kind: DECISION_ENTRY_KINDS.call })).toEqual([]);
    // record: false decides without the ledger, whatever the call says.
    const before = (await store.readEntries({ limit: 100000 })).length;
    const unrecorded = await decideGate({ ...base, now: at(6), record: false }, {}, bound);
    expect(unrecorded).toMatchObject({ decision: 'MAY_ACT', decisionId: null, record: { call_id: 'call-1' } });
    expect((await store.readEntries({ limit: 100000 })).length).toBe(before);
  });
});

// Several processes resuming the same approved call at once (two workers picking up one saved run):
// each runs the real store and runGuarded from their TypeScript sources, bundled by the workspace's
// esbuild into a directory under this package, where `better-sqlite3` resolves.
describe('several processes racing on one SQLite ledger', () => {
  const HERE = fileURLToPath(new URL('.', import.meta.url));
  const PACKAGE = join(HERE, '../..');

  it('one call id, three processes at once: exactly one executes it, the others are refused', async () => {
    const work = mkdtempSync(join(PACKAGE, 'node_modules', '.ewp-once-per-call-'));
    dirs.push(work);
    const entry = join(work, 'driver.ts');
    writeFileSync(
      entry,
      `import { appendFileSync } from 'node:fs';
import { SqliteEvidenceStore } from ${JSON.stringify(join(PACKAGE, '../sqlite/src/index.ts'))};
import { runGuarded } from ${JSON.stringify(join(HERE, 'run-guarded.ts'))};
const [file, marker, minutes, startAt] = process.argv.slice(2);
const store = new SqliteEvidenceStore(file);
while (Date.now() < Number(startAt)) await new Promise((resolve) => setTimeout(resolve, 1));
const action = ${JSON.stringify(restart)};
const now = () => new Date(${T.getTime()} + Number(minutes) * 60000);
try {
  // The framework's call id, as a binding passes it.
  const call = { gate: 'test', tool: 'restart', callId: 'call-race' };
  const run = await runGuarded({ store, proposition: 'P-win', action, now }, { server: 'server01' }, call, async () => {
    appendFileSync(marker, process.pid + '\\n');
    await new Promise((resolve) => setTimeout(resolve, 50));
    return 'restarted';
  });
  console.log(JSON.stringify({ status: run.status, decision_id: run.decisionId }));
} catch (error) {
  console.log(JSON.stringify({ code: error.code, decision_id: error.decisionId }));
}
await store.close();
`,
    );
    const driver = join(work, 'driver.mjs');
    // The workspace's esbuild (a root dev dependency), through its API: no package-local bin to rely on.
    await build({
      entryPoints: [entry],
      bundle: true,
      format: 'esm',
      platform: 'node',
      external: ['better-sqlite3'],
      conditions: ['@ewp/source'],
      outfile: driver,
      logLevel: 'warning',
    });
    expect(existsSync(driver)).toBe(true);
    const file = sqlitePath();
    const setup = new SqliteEvidenceStore(file);
    await setup.put(verified);
    await setup.close();
    const marker = join(work, 'executed.txt');
    writeFileSync(marker, '');
    // They start together once all are loaded (a start time, not a signal: no process waits on another).
    const startAt = Date.now() + 1500;
    const outputs = await Promise.all(
      [0, 1, 2].map(
        (minutes) =>
          new Promise<string>((resolve, reject) => {
            const child = spawn(process.execPath, [driver, file, marker, String(minutes), String(startAt)], { stdio: ['ignore', 'pipe', 'pipe'] });
            let out = '';
            let err = '';
            child.stdout.on('data', (b: Buffer) => (out += b));
            child.stderr.on('data', (b: Buffer) => (err += b));
            child.on('error', reject);
            child.on('exit', (code) => (code === 0 ? resolve(out.trim()) : reject(new Error(`driver exited ${code}: ${err}`))));
          }),
      ),
    );
    const results = outputs.map((o) => JSON.parse(o) as { status?: string; code?: string; decision_id: string });
    expect(readFileSync(marker, 'utf8').trim().split('\n')).toHaveLength(1);
    expect(results.filter((r) => r.status === 'executed')).toHaveLength(1);
    expect(results.filter((r) => r.code === 'EWP_REFUSE_DECISION_NOT_EXECUTABLE')).toHaveLength(2);
    const store = new SqliteEvidenceStore(file);
    const claims = await store.readEntries({ kind: DECISION_ENTRY_KINDS.call });
    expect(claims.map((c) => c.body.decision_id)).toEqual(results.filter((r) => r.status === 'executed').map((r) => r.decision_id));
    expect((await store.verifyChain()).ok).toBe(true);
    await store.close();
  }, 60_000);
});
