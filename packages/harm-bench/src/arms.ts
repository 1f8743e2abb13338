/**
 * The arms of the benchmark: each is a function from a scenario to a decision (act, hold or
 * confirm). They read the same scenario; what each may see is what its kind of memory keeps.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Action, type Decision as GateDecision, type SourceRef, type VerificationCheck, type WarrantView, decodeView } from '@ewp/core';
import { MemoryEvidenceStore } from '@ewp/ledger';
import { MemoryLedger } from '@ewp/memory';
import { decide, recordRetraction, runDecision } from '@ewp/tools';
import { type ObserveEvent, type Scenario, type ScenarioEvent, claimTexts, ms, recordedAt } from './scenario.js';

/** What an arm decides for a scenario. */
export type Decision = 'act' | 'hold' | 'confirm';

/** The arms, in the order of docs/harm-bench.md. */
export const ARM_IDS = ['plain', 'mem0', 'zep', 'confidence', 'gate', 'gate_recheck'] as const;
export type ArmId = (typeof ARM_IDS)[number];

/** One arm. `close` releases what `open` started (a Mem0 database, a Zep server). */
export interface Arm {
  id: ArmId;
  label: string;
  /** How the arm's answer becomes act / hold / confirm, in words. */
  mapping: string;
  decide(s: Scenario): Promise<Decision>;
  close(): Promise<void>;
}

/** Events in the order memory received them (recorded time, then position). */
function received(s: Scenario): { e: ScenarioEvent; i: number }[] {
  return s.events.map((e, i) => ({ e, i })).sort((x, y) => ms(recordedAt(x.e)) - ms(recordedAt(y.e)) || x.i - y.i);
}

function seenBy(s: Scenario, until: string): { e: ScenarioEvent; i: number }[] {
  return received(s).filter((x) => ms(recordedAt(x.e)) <= ms(until));
}

/** The time the action runs: later than the decision only with `executes_at`. */
function runTime(s: Scenario): string {
  return s.act.executes_at ?? s.act.at;
}

// ------------------------------------------------------------------ (a) plain memory

/**
 * (a) Plain memory, as a Mem0 or LangGraph-store agent uses it: the memories about the claim
 * (observations and assertions; a retraction deletes its memory), the newest one decides: it
 * supports the claim → act; it opposes it, or there is none → hold. Never confirms.
 */
export function plainArm(): Arm {
  return {
    id: 'plain',
    label: '(a) plain memory',
    mapping: 'newest memory about the claim supports it → act; opposes it or none → hold',
    async decide(s) {
      const seen = seenBy(s, s.act.at);
      const deleted = new Set(seen.flatMap(({ e }) => (e.op === 'retract' ? [e.event] : [])));
      let newest: ScenarioEvent | undefined;
      for (const { e, i } of seen) if ((e.op === 'observe' || e.op === 'assert') && e.claim === s.act.claim && !deleted.has(i)) newest = e;
      if (newest === undefined) return 'hold';
      return newest.op === 'observe' && newest.polarity === 'opposes' ? 'hold' : 'act';
    },
    close: async () => {},
  };
}

// ------------------------------------------------------------------ (c), (d), (e) the evidence layer

const ORIGIN_TYPES: Record<NonNullable<ObserveEvent['origin']>, string> = {
  tool: 'tool',
  sensor: 'sensor',
  document: 'document',
  person: 'human',
  agent: 'agent',
};

/** The EWP origin of an observation: what made it, unless it reached memory as a summary (the pipeline's own making). */
function originOf(e: ObserveEvent): string {
  return e.via === 'summary' ? 'summary' : ORIGIN_TYPES[e.origin ?? 'document'];
}

/**
 * One scenario replayed into the evidence layer: a {@link MemoryLedger} over an in-memory
 * EvidenceStore. Observations and assertions go through the layer's own `store`, `link`, `refute`
 * (with its echo check) and `recall`; what the layer has no verb for is written as EWP records on
 * the claim's proposition in the same store: a verification check for an observation with a
 * `method`, a `superseded_by` lineage edge for a supersession, and an `invalidation` ledger entry
 * (`recordRetraction`) for a retraction.
 */
class LayerReplay {
  readonly store = new MemoryEvidenceStore();
  clock = '1970-01-01T00:00:00Z';
  readonly memory = new MemoryLedger(this.store, { now: () => this.clock });
  /** The memory that stands for each claim (the first observation or assertion of it). */
  readonly claims = new Map<string, string>();
  /** The EWP records each event wrote on its claim's proposition (`evidence:obs:…`, `check:…`). */
  readonly records = new Map<number, string[]>();
  /** Memories written for events, by event index. */
  readonly memories = new Map<number, string>();
  /** Claims whose latest search did not cover everything (a later complete search replaces it). */
  readonly partial = new Set<string>();
  readonly texts: Map<string, string>;

  constructor(readonly s: Scenario) {
    this.texts = claimTexts(s);
  }

  pid(claim: string): string {
    return `mem:${this.claims.get(claim)}`;
  }

  async apply(e: ScenarioEvent, i: number): Promise<void> {
    this.clock = recordedAt(e);
    switch (e.op) {
      case 'assert': {
        const derived = (e.derived_from ?? []).flatMap((d) => (this.memories.has(d) ? [this.memories.get(d)!] : []));
        const m = await this.memory.store({ text: e.text, class: e.class, source: e.source, derived_from: derived, observed_at: e.at });
        this.memories.set(i, m.hash);
        if (!this.claims.has(e.claim)) {
          this.claims.set(e.claim, m.hash);
          this.records.set(i, [`assertion:claim:${m.hash}`]);
        }
        return;
      }
      case 'observe':
        return this.observe(e, i);
      case 'supersede':
        if (!this.claims.has(e.claim) || !this.claims.has(e.by)) return;
        await this.store.extend(this.pid(e.claim), [{ kind: 'lineage', record: { from_id: this.pid(e.claim), to_id: this.pid(e.by), kind: 'superseded_by' } }]);
        return;
      case 'retract': {
        const records = this.records.get(e.event);
        if (records === undefined || !this.claims.has(e.claim)) return;
        await recordRetraction(this.store, { proposition_id: this.pid(e.claim), records, note: 'retracted in the scenario', at: e.at });
        return;
      }
      case 'recall': {
        const text = this.texts.get(e.claim);
        for (let k = 0; k < e.times; k += 1) await this.memory.recall({ query: text, limit: 3, at: e.at });
        return;
      }
    }
  }

  async observe(e: ObserveEvent, i: number): Promise<void> {
    const written: string[] = [];
    const origin = originOf(e);
    if (e.via === 'summary') {
      // A summary is the agent pipeline's own making: the layer keeps it as an inference, which may support nothing.
      const m = await this.memory.store({ text: e.text, class: 'inference', source: e.source, origin_type: 'summary', observed_at: e.at });
      this.memories.set(i, m.hash);
      if (!this.claims.has(e.claim)) {
        this.claims.set(e.claim, m.hash);
        written.push(`assertion:claim:${m.hash}`);
      }
    } else {
      const target = this.claims.get(e.claim);
      if (target === undefined && e.polarity === 'supports') {
        const m = await this.memory.store({ text: e.text, class: 'observation', source: e.source, origin_type: origin, observed_at: e.at });
        this.claims.set(e.claim, m.hash);
        this.memories.set(i, m.hash);
        written.push(`evidence:obs:${m.hash}`);
      } else {
        let claim = target;
        if (claim === undefined) {
          // An opposing report of a claim nothing asserted yet: the claim stands as a hypothesis it opposes.
          claim = (await this.memory.store({ text: this.texts.get(e.claim)!, class: 'hypothesis', source: 'agent', observed_at: e.at })).hash;
          this.claims.set(e.claim, claim);
        }
        const m = await this.memory.store({ text: e.text, class: 'observation', source: e.source, origin_type: origin, observed_at: e.at });
        this.memories.set(i, m.hash);
        if (m.hash !== claim) {
          if (e.polarity === 'supports') await this.memory.link(m.hash, claim);
          else await this.memory.refute(m.hash, claim);
          written.push(`evidence:${e.polarity === 'supports' ? 'sup' : 'ref'}:${m.hash}`);
        }
      }
    }
    if (e.via === 'partial_search') this.partial.add(e.claim);
    else if (e.method !== undefined) this.partial.delete(e.claim);
    if (e.method !== undefined) {
      const id = `chk-${this.s.id}-${i}`;
      const source: SourceRef = {
        source_id: `src:${id}`,
        lineage_id: `source:${e.source}`,
        origin_type: origin,
        origin_locator: e.source,
        snapshot_id: id,
        content_hash: `text:${id}`,
        observed_at: e.at,
        extractor_id: null,
        parent_source_id: null,
      };
      const check: VerificationCheck = {
        check_id: id,
        method: e.method,
        scope: e.via === 'partial_search' ? 'partial' : 'complete',
        source,
        observed_at: e.at,
        result: e.polarity,
        subjects: e.subject === undefined ? [] : [e.subject],
      };
      await this.store.extend(this.pid(e.claim), [{ kind: 'check', record: check }]);
      written.push(`check:${id}`);
    }
    this.records.set(i, written);
  }

  /**
   * The view the gate decides on: the claim's stored view, scoped to the subject the action
   * touches and with the scope of the retrieval that found it, stored as the snapshot decided on.
   */
  async decisionView(): Promise<string | undefined> {
    const hash = this.claims.get(this.s.act.claim);
    if (hash === undefined) return undefined;
    const pid = `mem:${hash}`;
    const view = (await this.store.get(pid))!;
    const { view_id: _id, ...rest } = view;
    const scoped = {
      ...rest,
      subjects: this.s.act.subject === undefined ? [] : [this.s.act.subject],
      retrieval_scope: this.partial.has(this.s.act.claim) ? 'partial' : view.retrieval_scope,
    };
    decodeView(scoped);
    this.clock = this.s.act.at;
    await this.store.put(scoped);
    return pid;
  }
}

function actionOf(s: Scenario): Action {
  return { action_id: `${s.id}:${s.act.tool}`, kind: s.act.tool, risk: s.act.risk, reversible: s.act.reversible };
}

const FROM_GATE: Record<GateDecision, Decision> = { MAY_ACT: 'act', REQUIRE_CONFIRMATION: 'confirm', DENY: 'hold' };

/** What the evidence layer arms decide for one scenario, from one replay. */
export interface LayerDecisions {
  confidence: Decision;
  gate: Decision;
  gate_recheck: Decision;
  /** The layer's confidence at the decision (0 with no memory of the claim). */
  confidence_value: number;
  /** The rule of the gate's decision (a `MAY_ACT_RULES` id, or why nothing was decided). */
  gate_rule: string;
  /** The warrant the gate consulted at the decision (undefined with no memory of the claim). */
  gate_warrant: WarrantView | undefined;
}

/**
 * Replays `s` into the evidence layer and decides the three evidence-layer arms:
 * (c) confidence ≥ `threshold` → act; (d) the recording gate (`mayAct` with the default risk
 * policy, bounded by retractions recorded before the decision); (e) (d), then, when the action runs
 * later than it is decided, the decision's re-check at run time (`runDecision`: the recovery gate
 * over what changed since).
 */
export async function decideWithLayer(s: Scenario, threshold?: number): Promise<LayerDecisions> {
  const replay = new LayerReplay(s);
  const timeline = received(s);
  const decisionAt = ms(s.act.at);
  let k = 0;
  for (; k < timeline.length && ms(recordedAt(timeline[k]!.e)) <= decisionAt; k += 1) await replay.apply(timeline[k]!.e, timeline[k]!.i);
  const pid = await replay.decisionView();
  if (pid === undefined)
    return { confidence: 'hold', gate: 'hold', gate_recheck: 'hold', confidence_value: 0, gate_rule: 'no_memory', gate_warrant: undefined };
  const bar = threshold ?? replay.memory.config.confirmed_confidence;
  const shown = await replay.memory.show(pid.slice(4), s.act.at);
  const confidence: Decision = shown.confidence >= bar ? 'act' : 'hold';
  const made = await decide({ store: replay.store, propositions: [pid], action: actionOf(s), evaluatedAt: s.act.at, record: { gate: 'harm-bench' } });
  const gate = FROM_GATE[made.record.decision];
  let recheck = gate;
  if (s.act.executes_at !== undefined && gate !== 'hold') {
    for (; k < timeline.length && ms(recordedAt(timeline[k]!.e)) <= ms(runTime(s)); k += 1) await replay.apply(timeline[k]!.e, timeline[k]!.i);
    const run = await runDecision(
      replay.store,
      made.decision_id!,
      s.act.tool,
      () => true,
      gate === 'confirm' ? { confirmation: { confirmedBy: 'harm-bench' } } : {},
    );
    if (run.status === 'refused') recheck = 'hold';
  }
  return {
    confidence,
    gate,
    gate_recheck: recheck,
    confidence_value: shown.confidence,
    gate_rule: made.record.rule ?? made.record.decision,
    gate_warrant: made.warrants.get(pid),
  };
}

/** A scenario replayed into the evidence layer up to its decision, with the snapshot the gate decides on stored. */
export interface DecisionStore {
  store: MemoryEvidenceStore;
  /** The claim's proposition (`mem:<hash>`); undefined when nothing introduced the claim before the decision. */
  propositionId: string | undefined;
  action: Action;
  /** The decision time, `act.at`. */
  at: string;
}

/**
 * Replays `s` into a fresh evidence layer up to the decision, as the gate arms do, and returns the
 * store: a framework binding decides on it to be compared with the library's decision.
 */
export async function decisionStore(s: Scenario): Promise<DecisionStore> {
  const replay = new LayerReplay(s);
  for (const { e, i } of seenBy(s, s.act.at)) await replay.apply(e, i);
  return { store: replay.store, propositionId: await replay.decisionView(), action: actionOf(s), at: s.act.at };
}

/** The three evidence-layer arms, sharing one replay per scenario. */
export function layerArms(options: { confidenceThreshold?: number } = {}): Arm[] {
  const cache = new Map<string, Promise<LayerDecisions>>();
  const of = (s: Scenario) => {
    let p = cache.get(s.id);
    if (p === undefined) {
      p = decideWithLayer(s, options.confidenceThreshold);
      cache.set(s.id, p);
    }
    return p;
  };
  const arm = (id: 'confidence' | 'gate' | 'gate_recheck', label: string, mapping: string): Arm => ({
    id,
    label,
    mapping,
    decide: async (s) => (await of(s))[id],
    close: async () => cache.clear(),
  });
  return [
    arm(
      'confidence',
      '(c) evidence layer confidence',
      `confidence at T ≥ ${options.confidenceThreshold ?? "the layer's confirmed threshold (60)"} → act; else hold`,
    ),
    arm('gate', '(d) EWP gate', 'mayAct (default risk policy) on the memory view at T: MAY_ACT → act; REQUIRE_CONFIRMATION → confirm; DENY → hold'),
    arm('gate_recheck', '(e) gate + re-checks', '(d), then at run time the recorded decision is re-checked (runDecision); refused → hold'),
  ];
}

// ------------------------------------------------------------------ (b) the stores' own signals

/** The minimal surface of `mem0ai/oss` Memory the Mem0 arm uses. */
interface Mem0Memory {
  add(messages: { role: 'user'; content: string }[], config: Record<string, unknown>): Promise<{ results?: { id?: string }[] }>;
  search(query: string, config: Record<string, unknown>): Promise<{ results: { id: string; score?: number; metadata?: Record<string, unknown> }[] }>;
  delete(id: string): Promise<unknown>;
}

/**
 * (b) Mem0's own signal, through the real `mem0ai` open-source `Memory` (offline: deterministic
 * local embedder, SQLite vector store, no LLM; writes with `infer: false`). Each memory about the
 * scenario is added under the scenario's user id (a retraction deletes it); the agent searches
 * with the claim's text and acts when the best hit scores at least `threshold` and supports the
 * claim.
 */
export async function mem0Arm(options: { threshold?: number } = {}): Promise<Arm> {
  const { offlineMemory } = await import('@ewp/mem0-testing');
  // Mem0's SQLite files on a memory-backed file system when there is one: the arm measures decisions, not fsync.
  const dir = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'ewp-harm-mem0-'));
  const memory = (await offlineMemory(dir, { collectionName: 'harm' })) as unknown as Mem0Memory;
  const threshold = options.threshold ?? 0.5;
  return {
    id: 'mem0',
    label: '(b) Mem0 score',
    mapping: `best search hit scores ≥ ${threshold} and supports the claim → act; else hold`,
    async decide(s) {
      const userId = `harm-${s.id}`;
      const ids = new Map<number, string>();
      for (const { e, i } of seenBy(s, s.act.at)) {
        if (e.op === 'observe' || e.op === 'assert') {
          const polarity = e.op === 'observe' ? e.polarity : 'supports';
          const r = await memory.add([{ role: 'user', content: e.text }], { userId, metadata: { claim: e.claim, polarity, event: i }, infer: false });
          const id = r.results?.[0]?.id;
          if (id !== undefined) ids.set(i, id);
        } else if (e.op === 'retract' && ids.has(e.event)) {
          await memory.delete(ids.get(e.event)!);
        }
      }
      const text = claimTexts(s).get(s.act.claim)!;
      const { results } = await memory.search(text, { filters: { user_id: userId }, topK: 5 });
      const top = results[0];
      if (top === undefined || (top.score ?? 0) < threshold) return 'hold';
      return top.metadata?.claim === s.act.claim && top.metadata?.polarity === 'supports' ? 'act' : 'hold';
    },
    async close() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The surface of `@getzep/zep-cloud`'s ZepClient the Zep arm uses. */
interface ZepEdge {
  uuid: string;
  name: string;
  validAt?: string;
  invalidAt?: string;
}
interface ZepLike {
  graph: {
    create(r: { graphId: string }): Promise<unknown>;
    addFactTriple(r: Record<string, unknown>): Promise<{ edge: ZepEdge }>;
    search(r: Record<string, unknown>): Promise<{ edges?: ZepEdge[] }>;
    edge: { update(uuid: string, r: Record<string, unknown>): Promise<unknown>; delete(uuid: string): Promise<unknown> };
  };
}

/**
 * (b) Zep's own signal, fact validity at T, through the real `@getzep/zep-cloud` client against the
 * local Zep graph server the zep package's tests use. Graphiti's LLM cannot run here, so the arm
 * plays its part as those tests do: each memory is one fact (`addFactTriple`, `valid_at` = when it
 * was observed); a fact of the other polarity invalidates the earlier ones (`invalid_at`, Graphiti's
 * contradiction step), a supersession invalidates the old claim's facts, a retraction deletes the
 * fact. The agent searches the claim's text and acts when the newest fact valid at T supports it.
 */
export async function zepArm(): Promise<Arm> {
  const [{ ZepClient }, { startZepGraphServer }] = await Promise.all([import('@getzep/zep-cloud'), import('@ewp/zep-testing')]);
  const server = await startZepGraphServer({ processingDelayMs: 0 });
  const client = new ZepClient({ apiKey: server.apiKey, baseUrl: server.baseUrl, maxRetries: 0 } as never) as unknown as ZepLike;
  return {
    id: 'zep',
    label: '(b) Zep validity',
    mapping: 'newest fact about the claim valid at T (valid_at ≤ T < invalid_at) supports it → act; else hold',
    async decide(s) {
      const graphId = `harm-${s.id}`;
      await client.graph.create({ graphId });
      const facts = new Map<number, { uuid: string; claim: string; polarity: string; validAt: string }>();
      for (const { e, i } of seenBy(s, s.act.at)) {
        if (e.op === 'observe' || e.op === 'assert') {
          const polarity = e.op === 'observe' ? e.polarity : 'supports';
          const { edge } = await client.graph.addFactTriple({
            graphId,
            fact: e.text,
            factName: `${polarity.toUpperCase()}_${e.claim}`,
            sourceNodeName: (e.op === 'observe' ? e.subject : undefined) ?? e.claim,
            targetNodeName: e.claim,
            validAt: e.at,
          });
          for (const f of facts.values()) {
            if (f.claim === e.claim && f.polarity !== polarity && ms(f.validAt) < ms(e.at)) await client.graph.edge.update(f.uuid, { invalidAt: e.at });
          }
          facts.set(i, { uuid: edge.uuid, claim: e.claim, polarity, validAt: e.at });
        } else if (e.op === 'supersede') {
          for (const f of facts.values()) if (f.claim === e.claim) await client.graph.edge.update(f.uuid, { invalidAt: e.at });
        } else if (e.op === 'retract' && facts.has(e.event)) {
          await client.graph.edge.delete(facts.get(e.event)!.uuid);
          facts.delete(e.event);
        }
      }
      const T = ms(s.act.at);
      const { edges = [] } = await client.graph.search({ graphId, query: claimTexts(s).get(s.act.claim)!, scope: 'edges', limit: 50 });
      const valid = edges
        .filter((f) => f.name.endsWith(`_${s.act.claim}`))
        .filter((f) => f.validAt !== undefined && ms(f.validAt) <= T && (f.invalidAt === undefined || ms(f.invalidAt) > T))
        .sort((x, y) => ms(y.validAt!) - ms(x.validAt!));
      return valid[0]?.name.startsWith('SUPPORTS_') ? 'act' : 'hold';
    },
    close: () => server.close(),
  };
}
