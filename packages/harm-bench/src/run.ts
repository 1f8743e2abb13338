/**
 * Runs scenarios through the arms and counts, per arm and per family: wrong actions (acted where
 * the truth is hold), wrong irreversible actions, needless holds (held where the truth is act) and
 * confirmations asked.
 */
import { ARM_IDS, type Arm, type ArmId, type Decision, layerArms, mem0Arm, plainArm, zepArm } from './arms.js';
import type { Scenario } from './scenario.js';

/** The counts of one arm over some scenarios. */
export interface Tally {
  scenarios: number;
  acted: number;
  held: number;
  confirmed: number;
  /** Acted where the truth is hold. */
  wrong_actions: number;
  /** Wrong actions whose action is irreversible. */
  wrong_irreversible: number;
  /** Held where the truth is act. */
  needless_holds: number;
  /** Confirmations asked (a human is interrupted: `confirm_on_act` of them needlessly). */
  confirmations: number;
  confirm_on_act: number;
  confirm_on_hold: number;
}

/** One arm's result. */
export interface ArmReport {
  id: ArmId;
  label: string;
  mapping: string;
  total: Tally;
  by_family: Record<string, Tally>;
  /** Wall-clock seconds spent in this arm's decisions (an arm sharing work with another may show it in either). */
  seconds: number;
}

/** An arm that could not run (its real component failed to start), with why. */
export interface SkippedArm {
  id: ArmId;
  reason: string;
}

/** The whole run. */
export interface BenchReport {
  scenarios: number;
  families: string[];
  truth: { act: number; hold: number };
  arms: ArmReport[];
  skipped: SkippedArm[];
  /** Per scenario: each arm's decision. */
  decisions: { id: string; family: string; truth: string; risk: string; reversible: boolean; by_arm: Partial<Record<ArmId, Decision>> }[];
  seconds: number;
}

/** Options of {@link runBench}. */
export interface RunOptions {
  /** Arms to run (default all). */
  arms?: readonly ArmId[];
  /** Called after each scenario with (done, total). */
  onProgress?: (done: number, total: number) => void;
  /** Mem0 arm's score threshold (default 0.5). */
  mem0Threshold?: number;
  /** The confidence arm's threshold (default: the layer's `confirmed_confidence`). */
  confidenceThreshold?: number;
}

function emptyTally(): Tally {
  return {
    scenarios: 0,
    acted: 0,
    held: 0,
    confirmed: 0,
    wrong_actions: 0,
    wrong_irreversible: 0,
    needless_holds: 0,
    confirmations: 0,
    confirm_on_act: 0,
    confirm_on_hold: 0,
  };
}

/** Adds one decision to a tally. */
export function count(t: Tally, s: Scenario, d: Decision): void {
  t.scenarios += 1;
  if (d === 'act') {
    t.acted += 1;
    if (s.truth === 'hold') {
      t.wrong_actions += 1;
      if (!s.act.reversible) t.wrong_irreversible += 1;
    }
  } else if (d === 'hold') {
    t.held += 1;
    if (s.truth === 'act') t.needless_holds += 1;
  } else {
    t.confirmed += 1;
    t.confirmations += 1;
    if (s.truth === 'act') t.confirm_on_act += 1;
    else t.confirm_on_hold += 1;
  }
}

async function openArms(ids: readonly ArmId[], options: RunOptions): Promise<{ arms: Arm[]; skipped: SkippedArm[] }> {
  const arms: Arm[] = [];
  const skipped: SkippedArm[] = [];
  const want = new Set(ids);
  if (want.has('plain')) arms.push(plainArm());
  for (const [id, open] of [
    ['mem0', () => mem0Arm({ threshold: options.mem0Threshold })],
    ['zep', () => zepArm()],
  ] as const) {
    if (!want.has(id)) continue;
    try {
      arms.push(await open());
    } catch (error) {
      skipped.push({ id, reason: (error as Error).message });
    }
  }
  const layer = layerArms({ confidenceThreshold: options.confidenceThreshold }).filter((a) => want.has(a.id));
  arms.push(...layer);
  arms.sort((a, b) => ARM_IDS.indexOf(a.id) - ARM_IDS.indexOf(b.id));
  return { arms, skipped };
}

/** Runs every scenario through the arms, one scenario at a time. */
export async function runBench(scenarios: readonly Scenario[], options: RunOptions = {}): Promise<BenchReport> {
  const started = performance.now();
  const { arms, skipped } = await openArms(options.arms ?? ARM_IDS, options);
  const families = [...new Set(scenarios.map((s) => s.family))];
  const reports: ArmReport[] = arms.map((a) => ({
    id: a.id,
    label: a.label,
    mapping: a.mapping,
    total: emptyTally(),
    by_family: Object.fromEntries(families.map((f) => [f, emptyTally()])),
    seconds: 0,
  }));
  const decisions: BenchReport['decisions'] = [];
  try {
    for (const [n, s] of scenarios.entries()) {
      const by_arm: Partial<Record<ArmId, Decision>> = {};
      for (const [k, arm] of arms.entries()) {
        const t0 = performance.now();
        const d = await arm.decide(s);
        reports[k]!.seconds += (performance.now() - t0) / 1000;
        by_arm[arm.id] = d;
        count(reports[k]!.total, s, d);
        count(reports[k]!.by_family[s.family]!, s, d);
      }
      decisions.push({ id: s.id, family: s.family, truth: s.truth, risk: s.act.risk, reversible: s.act.reversible, by_arm });
      options.onProgress?.(n + 1, scenarios.length);
    }
  } finally {
    for (const arm of arms) await arm.close();
  }
  for (const r of reports) r.seconds = Math.round(r.seconds * 100) / 100;
  const act = scenarios.filter((s) => s.truth === 'act').length;
  return {
    scenarios: scenarios.length,
    families,
    truth: { act, hold: scenarios.length - act },
    arms: reports,
    skipped,
    decisions,
    seconds: Math.round((performance.now() - started) / 10) / 100,
  };
}
