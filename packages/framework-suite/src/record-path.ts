/**
 * One record path for every gate binding: the same scenario (a verified fact at T0, a high-risk
 * reversible restart, once with a tool that succeeds and once with one that throws) run through each
 * binding with its framework's own model or runner, and the ledger read back as what a reviewer
 * compares: the decision records apart from gate and call id, which must be the binding's own, the
 * one execution claim per call and its outcome.
 */
import { type ErrorCodeTable, EwpError } from '@ewp/core';
import type { EvidenceStore } from '@ewp/ledger';
import { callClaimId, DECISION_ENTRY_KINDS, decisionHistory, listDecisions, runGuarded, wireAction } from '@ewp/tools';
import { expect } from 'vitest';
import { T0, withStore, REFERENCE } from './fixture-ledger.js';

/** The scenario's gate options (camelCase, as every binding's gate takes them) and clock: MAY_ACT on P-win at T0. */
export const SCENARIO = {
  proposition: 'P-win',
  action: { id: 'restart', kind: 'restart', risk: 'high' as const, reversible: true },
  now: () => T0,
  server: 'server01',
  error: 'winrm unreachable',
};

/** The scenario's action on the wire (`ewp_may_act` arguments, a Claude Code mapping file): the one conversion of `@ewp/tools`. */
export const SCENARIO_WIRE_ACTION = wireAction(SCENARIO.action, 'restart');

/** The codes only the framework suite raises, with their meanings. */
export const FRAMEWORK_SUITE_ERROR_CODES = {
  SCENARIO_TOOL_FAILED: "the record-path scenario's tool failing on purpose (a simulated outage of the server it restarts)",
} as const satisfies ErrorCodeTable;

/** The scenario tool's own failure, as an application's tool throws it. */
export class ScenarioToolFailure extends EwpError<keyof typeof FRAMEWORK_SUITE_ERROR_CODES> {
  static override readonly marker: symbol = Symbol.for('ewp.error.ScenarioToolFailure');
  constructor(message: string) {
    super('SCENARIO_TOOL_FAILED', message);
    this.name = 'ScenarioToolFailure';
  }
}

/** How a binding ran the scenario: the gate name and call id its records must carry. */
export interface BindingRun {
  gate: string;
  /** The framework's call id, or a pattern for ids the framework composes (ADK's `<invocation>:<function call>`). */
  callId: string | RegExp;
  /** The servers the tool was asked to restart (it ran, whether it then failed or not). */
  ran: string[];
}

/** A binding under test: runs the scenario over `store`, with a tool that throws `SCENARIO.error` when `fail`. */
export interface RecordBinding {
  name: string;
  run: (store: EvidenceStore, fail: boolean) => Promise<BindingRun>;
}

/** The library's own guarded run: the reference every binding's records are compared with. */
export const REFERENCE_BINDING: RecordBinding = {
  name: 'runGuarded (reference)',
  run: async (store, fail) => {
    const ran: string[] = [];
    const options = {
      store,
      proposition: SCENARIO.proposition,
      action: SCENARIO.action,
      now: SCENARIO.now,
    };
    // The library called directly, as a binding calls it: its gate name, the tool's name, the framework's call id.
    await runGuarded(options, { server: SCENARIO.server }, { gate: 'reference', tool: 'restart', callId: 'ref-1' }, async ({ server }) => {
      ran.push(server);
      if (fail) throw new ScenarioToolFailure(SCENARIO.error);
      return `restarted ${server}`;
    }).catch(() => undefined);
    return { gate: 'reference', callId: 'ref-1', ran };
  },
};

/** What a reviewer compares of one binding's run. */
export interface RecordPath {
  /** The distinct decision records of the call, without gate and call id (a binding may decide a call more than once). */
  records: unknown[];
  /** Per recorded decision: its confirmation, execution claim and outcome (status and error). */
  histories: unknown[];
  /** The claims on calls: gate and call id (checked against the binding's), and the decision each claims. */
  calls: number;
  ran: string[];
}

/** Runs `binding` over a fresh fixture ledger and reads its records back, checking gate and call id are its own. */
export async function recordPathOf(binding: RecordBinding, fail: boolean): Promise<RecordPath> {
  return withStore(REFERENCE, async (store) => {
    const run = await binding.run(store, fail);
    const decisions = await listDecisions(store, { limit: 100_000 });
    expect(decisions.length, `${binding.name}: decisions recorded`).toBeGreaterThan(0);
    for (const d of decisions) {
      expect(d.record.gate, `${binding.name}: gate name`).toBe(run.gate);
      if (typeof run.callId === 'string') expect(d.record.call_id, `${binding.name}: call id`).toBe(run.callId);
      else expect(d.record.call_id, `${binding.name}: call id`).toMatch(run.callId);
    }
    const callIds = new Set(decisions.map((d) => d.record.call_id));
    expect(callIds.size, `${binding.name}: one call`).toBe(1);
    const [callId] = callIds as Set<string>;
    const claims = await store.readEntries({ kind: DECISION_ENTRY_KINDS.call, limit: 1000 });
    for (const c of claims) expect(c.id, `${binding.name}: the call claim names its gate and call id`).toBe(callClaimId(run.gate, callId as string));
    const records = new Map<string, unknown>();
    const histories: unknown[] = [];
    const ids = new Set(decisions.map((d) => d.decision_id));
    for (const d of decisions) {
      const { gate: _gate, call_id: _call, recovery, ...rest } = d.record;
      // A binding that decides a call more than once (when it is proposed, when it runs) records the
      // later decisions with the recovery gate of the earlier one: that gate must name a decision of
      // this call, and left unbounded it is the same as no baseline at all.
      if (recovery?.baseline_decision_id != null) expect(ids.has(recovery.baseline_decision_id), `${binding.name}: recovery baseline`).toBe(true);
      const unbounded = recovery === null || (recovery.decision === 'MAY_ACT' && Object.keys(recovery.invalidated).length === 0);
      const record = { ...rest, recovery: unbounded ? null : recovery };
      records.set(JSON.stringify(record), record);
      const h = await decisionHistory(store, d.decision_id);
      // Decisions that were not executed (a binding asks before it runs) have no history to compare.
      if (h.execution === null && h.outcome === null && h.confirmation === null) continue;
      histories.push({
        confirmation: h.confirmation !== null,
        execution: h.execution !== null,
        // The error as the framework reports it: its text may wrap the tool's (ADK: "Error in tool 'restart': …").
        outcome:
          h.outcome === null
            ? null
            : {
                status: h.outcome.body.status,
                error: typeof h.outcome.body.error === 'string' && h.outcome.body.error.includes(SCENARIO.error) ? SCENARIO.error : h.outcome.body.error,
              },
      });
    }
    return { records: [...records.values()], histories, calls: claims.length, ran: run.ran };
  });
}
