/**
 * Differential: the table-backed gate (`decide`, `decideGate`) and `ewp_may_act` answer as the kernel
 * (`warrantNow` over the proposition's snapshot read at the same T) for random writes, in this
 * connection and another one on the same SQLite file, and random T (piece edges included).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type Action,
  type EvidenceView,
  formatInstant,
  type Instant,
  mayAct,
  parseInstant,
  REFERENCE_V2,
  type RiskPolicy,
  warrantNow,
  warrantWithHorizon,
} from '@ewp/core';
import type { LedgerRecord } from '@ewp/ledger';
import { consultedWarrant, decisionAction, decisionRiskPolicy, warrantReceiptFor } from '@ewp/receipts';
import { SqliteEvidenceStore } from '@ewp/sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { decide } from './decisions/recording-gate.js';
import { decideGate } from './gate-decision.js';
import { latestWarrant, storedWarrant } from './stored-warrant.js';
import { contractView } from './testing/contract-cases.js';
import { toolContext } from './toolset.js';
import { mayActTool } from './tools/may-act.js';
import { warrantTableFor } from './warrant-table.js';

const dirs: string[] = [];
const stores: SqliteEvidenceStore[] = [];

afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A seeded generator (mulberry32): a failure names its seed and replays. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const BASE = Date.parse('2026-09-21T18:30:00Z') / 1000;
const WINDOWS = [3600, 86_400, 604_800];

function at(seconds: number, micros = 0): string {
  return formatInstant({ seconds, micros });
}

function source(id: string, lineage: string, origin: 'tool' | 'human' | 'model', observedAt: string) {
  return {
    source_id: id,
    lineage_id: lineage,
    origin_type: origin,
    origin_locator: `loc:${id}`,
    snapshot_id: `snap:${id}`,
    content_hash: `sha256:${id}`,
    observed_at: observedAt,
    extractor_id: null,
    parent_source_id: null,
  };
}

/** A random record extending a proposition: a check or an evidence item, for or against, at a random time. */
function randomRecord(next: () => number, n: number): LedgerRecord {
  const observedAt = at(BASE + Math.floor(next() * 40 * 86_400) - 86_400);
  const origin = (['tool', 'human', 'model'] as const)[Math.floor(next() * 3)] as 'tool' | 'human' | 'model';
  const src = source(`s-r${n}`, `L-${Math.floor(next() * 3)}`, origin, observedAt);
  if (next() < 0.6) {
    return {
      kind: 'check',
      record: {
        check_id: `k-r${n}`,
        method: 'tool_observation',
        scope: 'server01',
        observed_at: observedAt,
        result: next() < 0.65 ? 'supports' : 'opposes',
        subjects: ['server01'],
        source: src,
      },
    } as LedgerRecord;
  }
  return {
    kind: 'evidence',
    record: { evidence_id: `e-r${n}`, polarity: next() < 0.7 ? 'supports' : 'opposes', source: src, content: `observation ${n}`, observed_at: observedAt },
  } as LedgerRecord;
}

/** T's around a piece of the snapshot's warrant: its edges (and their neighbours) and a random instant. */
function timesFor(view: EvidenceView, next: () => number): string[] {
  const t = at(BASE + Math.floor(next() * 60 * 86_400) - 5 * 86_400, Math.floor(next() * 1_000_000));
  const piece = warrantWithHorizon(view, REFERENCE_V2, t);
  const out = [t];
  for (const edge of [piece.from, piece.until]) {
    if (edge === null) continue;
    out.push(formatInstant(edge), formatInstant(shift(edge, -1)), formatInstant(shift(edge, 1)));
  }
  return out;
}

function shift(i: Instant, micros: number): Instant {
  const total = i.micros + micros;
  return { seconds: i.seconds + Math.floor(total / 1_000_000), micros: ((total % 1_000_000) + 1_000_000) % 1_000_000 };
}

/** A T as the server clock gives it (milliseconds): `ewp_may_act` decides at the clock, never at a caller's T. */
function clockOf(t: string): Date {
  const i = parseInstant(t) as Instant;
  return new Date(i.seconds * 1000 + Math.floor(i.micros / 1000));
}

const ACTIONS: Action[] = [
  { action_id: 'restart', kind: 'ops', risk: 'high', reversible: false },
  { action_id: 'failover', kind: 'ops', risk: 'high', reversible: true },
  { action_id: 'notify', kind: 'ops', risk: 'medium', reversible: true },
  { action_id: 'read', kind: 'ops', risk: 'low', reversible: true },
];
const POLICIES: (RiskPolicy | undefined)[] = [undefined, { high_requires_accepted: false }, { high_requires_no_open_conflict: false }];

describe('the gate and ewp_may_act through the warrant table', () => {
  it('answer as warrantNow on the snapshot read at T, over random writes and T (real SQLite, two connections)', async () => {
    const seed = Number(process.env.EWP_DIFF_SEED ?? 20261206);
    const next = rng(seed);
    const dir = mkdtempSync(join(tmpdir(), 'ewp-stored-warrant-'));
    dirs.push(dir);
    const file = join(dir, 'ledger.sqlite');
    const store = new SqliteEvidenceStore(file);
    const other = new SqliteEvidenceStore(file);
    stores.push(store, other);
    const pids: string[] = [];
    const versions = new Map<string, number>();
    let records = 0;
    let checks = 0;
    const decisions = new Set<string>();
    const acceptances = new Set<string>();
    let policyDecided = 0;
    for (let round = 0; round < 40; round++) {
      // A write: a new proposition (a window of its own), or a record on one, by either connection.
      const writer = next() < 0.35 ? other : store;
      if (pids.length < 4 || next() < 0.2) {
        const pid = `P-${pids.length}`;
        const view = contractView(pid, 'v0') as unknown as { freshness_policy_seconds: number };
        view.freshness_policy_seconds = WINDOWS[Math.floor(next() * WINDOWS.length)] as number;
        await writer.put(view as never);
        pids.push(pid);
        versions.set(pid, 0);
      } else {
        const pid = pids[Math.floor(next() * pids.length)] as string;
        const v = (versions.get(pid) as number) + 1;
        versions.set(pid, v);
        await writer.extend(pid, [randomRecord(next, records++)], { newViewId: `v${v}` });
      }
      // Questions on a few propositions, each at several T, some asked twice (answered by a lookup).
      for (let q = 0; q < 6; q++) {
        const pid = pids[Math.floor(next() * pids.length)] as string;
        const latest = (await store.get(pid)) as EvidenceView;
        for (const t of timesFor(latest, next)) {
          for (let again = 0; again < (next() < 0.3 ? 2 : 1); again++) {
            const action = ACTIONS[Math.floor(next() * ACTIONS.length)] as Action;
            const riskPolicy = POLICIES[Math.floor(next() * POLICIES.length)];
            const where = `seed ${seed}, round ${round}, ${pid} at ${t}`;
            // The kernel on the snapshot a read gives at T.
            const view = (await store.get(pid)) as EvidenceView;
            const kernel = warrantNow(view, REFERENCE_V2, t);
            const consulted = consultedWarrant(warrantReceiptFor(view, kernel), kernel, decisionAction(action), decisionRiskPolicy(riskPolicy));

            expect(await storedWarrant(store, view, t), where).toEqual(kernel);
            // A reader of the warrant alone (the bindings' memory readers), from either connection's table.
            expect(await latestWarrant(store, pid, t), where).toEqual(kernel);
            expect(await latestWarrant(other, pid, t), where).toEqual(kernel);
            // The recording gate: unrecorded, decided as recorded (dry run), or recorded now and then (a
            // record is a commit: the table sees it, and a recorded decision evaluates directly).
            const r = next();
            const record = r < 0.1 ? { gate: 'diff' } : r < 0.45 ? (false as const) : { gate: 'diff', dryRun: true };
            const made = await decide({ store, propositions: [pid], action, riskPolicy, evaluatedAt: t, record });
            expect(made.warrants.get(pid), where).toEqual(kernel);
            expect(made.record.consulted, where).toEqual([consulted]);
            expect(made.record.may_act, where).toBe(mayAct(kernel, action, riskPolicy));
            decisions.add(made.record.may_act);
            if (mayAct(kernel, action, riskPolicy) !== mayAct(kernel, action)) policyDecided += 1;
            acceptances.add(kernel.warrant.acceptance);
            checks += 1;

            // A framework binding's gate (decideGate), at the clock's T.
            const clock = clockOf(t);
            const tc = clock.toISOString();
            const kernelAtClock = warrantNow(view, REFERENCE_V2, tc);
            const gate = await decideGate(
              {
                store,
                proposition: pid,
                action: { id: action.action_id, kind: action.kind, risk: action.risk, reversible: action.reversible },
                ...(riskPolicy === undefined
                  ? {}
                  : {
                      riskPolicy: {
                        highRequiresAccepted: riskPolicy.high_requires_accepted,
                        highRequiresNoOpenConflict: riskPolicy.high_requires_no_open_conflict,
                      },
                    }),
                now: () => clock,
                record: { dryRun: true },
              },
              {},
              { gate: 'diff', tool: 'restart', callId: undefined },
            );
            expect(gate.warrant, where).toEqual(kernelAtClock);
            expect(gate.record.consulted[0]?.receipt, where).toEqual(warrantReceiptFor(view, kernelAtClock));
            expect(gate.record.may_act, where).toBe(mayAct(kernelAtClock, action, riskPolicy));
            checks += 1;

            // ewp_may_act, as every binding runs it (runTool), at the clock's T.
            const answer = await mayActTool.run(
              { proposition_id: pid, action: { risk: action.risk, reversible: action.reversible, action_id: action.action_id, kind: action.kind } },
              toolContext({ store, ingest: false, now: () => clock, ...(riskPolicy === undefined ? {} : { riskPolicy }) }),
            );
            expect(answer.view_id, where).toBe(view.view_id);
            const { strength: _s, rationale_codes: _r, ...axes } = kernelAtClock.warrant;
            expect(
              {
                acceptance: answer.acceptance,
                conflict: answer.conflict,
                verification: answer.verification,
                currency: answer.currency,
                sufficiency: answer.sufficiency,
              },
              where,
            ).toEqual(axes);
            if (answer.held_until_reevaluated.length === 0)
              expect(answer.decision, where).toBe(mayAct(kernelAtClock, action, { policy_id: 'action-v0.1', version: '0.1.0', ...riskPolicy }));
            checks += 1;
          }
        }
      }
    }
    expect(checks).toBeGreaterThan(3000);
    // The sequence reaches every decision and more than one acceptance (not a run of one answer).
    expect([...decisions].sort()).toEqual(['DENY', 'MAY_ACT', 'REQUIRE_CONFIRMATION']);
    expect(acceptances.size).toBeGreaterThan(1);
    // ... and the operator's policy decides some of them.
    expect(policyDecided).toBeGreaterThan(0);
    // The table answered most of them by lookup (the reads are shared, not repeated).
    const table = warrantTableFor(store);
    expect(table.hits).toBeGreaterThan(table.misses);
  }, 180_000);

  it('answers for the view the caller read, when another connection commits between its read and the lookup', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ewp-stored-warrant-'));
    dirs.push(dir);
    const file = join(dir, 'ledger.sqlite');
    const store = new SqliteEvidenceStore(file);
    const other = new SqliteEvidenceStore(file);
    stores.push(store, other);
    await store.put(contractView('P-a', 'v1') as never);
    const t = at(BASE + 3600);
    const v1 = (await store.get('P-a')) as EvidenceView;
    expect((await storedWarrant(store, v1, t)).warrant.acceptance).toBe('ACCEPTED');
    // The check opposes the claim: the warrant of v2 is not v1's.
    const next = rng(7);
    let opposing: LedgerRecord;
    do opposing = randomRecord(next, 0);
    while (opposing.kind !== 'check' || (opposing.record as { result: string }).result !== 'opposes');
    (opposing.record as { observed_at: string }).observed_at = at(BASE + 60);
    (opposing.record as { source: { observed_at: string } }).source.observed_at = at(BASE + 60);
    await other.extend('P-a', [opposing], { newViewId: 'v2' });
    const v2 = (await store.get('P-a')) as EvidenceView;
    expect(warrantNow(v2, REFERENCE_V2, t)).not.toEqual(warrantNow(v1, REFERENCE_V2, t));
    // The table now holds v2; a caller still holding v1 gets v1's warrant, and a fresh reader v2's.
    expect(await storedWarrant(store, v1, t)).toEqual(warrantNow(v1, REFERENCE_V2, t));
    expect(await storedWarrant(store, v2, t)).toEqual(warrantNow(v2, REFERENCE_V2, t));
    expect(await storedWarrant(store, v1, t, true)).toEqual(warrantNow(v1, REFERENCE_V2, t));
    expect(await latestWarrant(store, 'P-a', t)).toEqual(warrantNow(v2, REFERENCE_V2, t));
    expect(await latestWarrant(store, 'P-none', t)).toBeUndefined();
    // A bad T raises what warrantNow raises (not the table's tool refusal).
    await expect(latestWarrant(store, 'P-a', 'not a time')).rejects.toMatchObject({ name: 'InvalidEvaluatedAt' });
  });
});
