/**
 * The read-only JSON API behind the inspector page. Every answer is computed from the store on
 * request; warrant comes from @ewp/core, origin trust from @ewp/tools. Nothing here writes.
 */
import { EwpError, type EvidenceView, PROTOCOL_VERSION, parseEvaluatedAt, REFERENCE_V2, type RiskPolicy, type SourceRef } from '@ewp/core';
import type { InspectErrorCode } from './errors.js';
import type { EvidenceStore } from '@ewp/ledger';
import { asRefusal, boundPage, type OriginTrust, originTrust, sourcesOf, warrantTableFor } from '@ewp/tools';
import { ChainStatusCache, type ChainVerification } from './chain-status.js';
import { DEFAULT_DECISION_PAGE, decisionPage, MAX_DECISION_PAGE } from './decision-facts.js';
import { MemoryFacts, type MemoryOptions } from './memory-facts.js';
import type {
  ChainStatus,
  DecisionPage,
  InspectorMeta,
  LossReportPanel,
  MemoryAnswer,
  PropositionDetail,
  PropositionPage,
  PropositionRow,
  WireView,
} from './wire.js';

export type {
  AdapterLossReport,
  ChainStatus,
  DecisionPage,
  DecisionRow,
  InspectorMeta,
  LossCount,
  LossReportPanel,
  MemoryAnswer,
  MemoryGateAttempt,
  MemoryLink,
  MemoryPanel,
  MemoryReclass,
  PropositionDetail,
  PropositionPage,
  PropositionRecovery,
  PropositionRow,
  RecoveryGate,
  WireView,
} from './wire.js';
export { DEFAULT_DECISION_PAGE, MAX_DECISION_PAGE } from './decision-facts.js';
export type { MemoryOptions } from './memory-facts.js';

/** Default and largest page of the proposition list. */
export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 500;

/** {@link WireView} of a view. */
export function toWireView(view: EvidenceView): WireView {
  const sources: Record<string, SourceRef> = {};
  const id = (s: SourceRef) => {
    sources[s.source_id] ??= s;
    return s.source_id;
  };
  return {
    ...view,
    sources,
    assertions: view.assertions.map((a) => ({ ...a, source: id(a.source) })),
    evidence: view.evidence.map((e) => ({ ...e, source: id(e.source) })),
    checks: view.checks.map((c) => ({ ...c, source: id(c.source) })),
  };
}

/** A request the API refuses: an HTTP status and a message naming the parameter. */
export class InspectorRequestError extends EwpError<InspectErrorCode> {
  static override readonly marker: symbol = Symbol.for('ewp.error.InspectorRequestError');
  constructor(
    readonly status: 400 | 404,
    message: string,
    path?: string,
  ) {
    super('INSPECT_BAD_REQUEST', message, { path });
    this.name = 'InspectorRequestError';
  }
}

function intParam(params: URLSearchParams, name: string, fallback: number, max: number): number {
  const raw = params.get(name);
  if (raw === null || raw === '') return fallback;
  if (!/^\d{1,9}$/.test(raw) || Number(raw) > max)
    throw new InspectorRequestError(400, `${name} must be an integer from 0 to ${max}, got ${JSON.stringify(raw)}`);
  return Number(raw);
}

function instantParam(params: URLSearchParams, now: () => Date): string {
  const at = params.get('at') ?? now().toISOString();
  try {
    parseEvaluatedAt(at);
  } catch (error) {
    throw new InspectorRequestError(400, `at: ${(error as Error).message}`);
  }
  return at;
}

function requiredParam(params: URLSearchParams, name: string): string {
  const value = params.get(name);
  if (value === null || value === '') throw new InspectorRequestError(400, `${name} is required`);
  return value;
}

/** The data the page reads, over one store. */
export class InspectorApi {
  /**
   * @param options.verifyChain how to verify the audit chain; default the store's own
   *   `verifyChain`, on this thread (see `verifyChainInWorker` to keep the event loop free)
   * @param options.memory where the evidence layer's salience is and which configuration it was written under
   */
  constructor(
    private readonly store: EvidenceStore,
    private readonly options: {
      riskPolicy: RiskPolicy;
      label: string;
      loss: LossReportPanel;
      now: () => Date;
      verifyChain?: () => Promise<ChainVerification>;
      memory?: MemoryOptions;
    },
  ) {
    this.chainStatus = new ChainStatusCache(store, options.verifyChain ?? (() => store.verifyChain()), options.now);
    this.memoryFacts = new MemoryFacts(store, { ...options.memory, now: options.now });
  }

  private readonly memoryFacts: MemoryFacts;

  meta(): InspectorMeta {
    return {
      protocol_version: PROTOCOL_VERSION,
      policy: { ...REFERENCE_V2 },
      risk_policy: this.options.riskPolicy,
      now: this.options.now().toISOString(),
      label: this.options.label,
      capabilities: this.store.capabilities,
      loss: this.options.loss,
    };
  }

  /**
   * A page of propositions, newest commit first. The store lists from the newest, so page `offset`
   * reads `offset + limit + 1` summaries (the extra one tells whether a next page exists) and
   * loads only the page's latest snapshots to compute their axes.
   */
  async propositions(params: URLSearchParams): Promise<PropositionPage> {
    const at = instantParam(params, this.options.now);
    const query = params.get('q') ?? '';
    const offset = intParam(params, 'offset', 0, 100_000_000);
    const limit = intParam(params, 'limit', DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE);
    const listed = await this.store.listPropositions({ query, limit: offset + limit + 1 });
    const page = listed.slice(offset, offset + limit);
    // Through the store's warrant table, as `ewp_warrant_now` reads: a lookup while T stays in a kept piece.
    const table = warrantTableFor(this.store);
    const items = await Promise.all(
      page.map(async (p): Promise<PropositionRow> => {
        let warrant: PropositionRow['warrant'];
        try {
          const { rationale_codes: _codes, strength: _strength, ...axes } = (await table.pieceWarrant(p.proposition_id, p.latest_view_id, at)).warrant;
          warrant = axes;
        } catch (error) {
          const refusal = asRefusal(error);
          // A store that fails fails the page, as its read did before the table.
          if (refusal?.code === 'EWP_REFUSE_LEDGER_UNAVAILABLE') throw refusal.cause ?? error;
          warrant = { error: refusal?.code === 'EWP_REFUSE_MISSING_VIEW' ? 'snapshot not found' : (refusal?.reason ?? (error as Error).message) };
        }
        return { ...p, warrant };
      }),
    );
    // The page also stops at a byte bound (assertion texts are as long as their writers made them).
    const bounded = boundPage(items, (p) => ({ proposition_id: p.proposition_id, latest_view_id: p.latest_view_id, snapshots: p.snapshots }));
    const more = bounded.taken < items.length || listed.length > offset + limit;
    return {
      evaluated_at: at,
      query,
      offset,
      limit,
      items: bounded.items as PropositionRow[],
      has_more: more,
      next_cursor: more ? offset + bounded.taken : null,
    };
  }

  /** The latest snapshot of a proposition (or the one named by `view`), its snapshots and its origins' trust. */
  async proposition(params: URLSearchParams): Promise<PropositionDetail> {
    const id = requiredParam(params, 'id');
    const viewId = params.get('view') ?? undefined;
    const view = await this.store.get(id, viewId);
    if (view === undefined)
      throw new InspectorRequestError(
        404,
        viewId === undefined ? `no proposition ${JSON.stringify(id)}` : `no snapshot ${JSON.stringify(viewId)} of ${JSON.stringify(id)}`,
      );
    const snapshots = await this.store.listSnapshots(id);
    const origin_trust: Record<string, OriginTrust> = {};
    for (const source of sourcesOf(view)) origin_trust[source.origin_type] ??= originTrust(source.origin_type);
    return { view: toWireView(view), snapshots, origin_trust };
  }

  /**
   * The proposition as a memory of the evidence layer (@ewp/memory) at T: class, confidence with its
   * counts, salience and the memory's events; `memory: null` for a proposition that is no memory.
   */
  async memory(params: URLSearchParams): Promise<MemoryAnswer> {
    const id = requiredParam(params, 'id');
    const at = instantParam(params, this.options.now);
    return { memory: await this.memoryFacts.panel(id, at) };
  }

  /**
   * Recorded gate decisions, oldest first after chain index `after`: every one, or those that
   * consulted `proposition` (then with the proposition's retractions, re-evaluation and plans).
   */
  async decisions(params: URLSearchParams): Promise<DecisionPage> {
    const proposition = params.get('proposition');
    const afterRaw = params.get('after');
    return decisionPage(this.store, {
      proposition: proposition === null || proposition === '' ? null : proposition,
      after: afterRaw === null || afterRaw === '' ? null : intParam(params, 'after', 0, 999_999_999),
      limit: intParam(params, 'limit', DEFAULT_DECISION_PAGE, MAX_DECISION_PAGE),
    });
  }

  /** Releases what the API holds beyond the store (the salience file's private copy). */
  close(): void {
    this.memoryFacts.close();
  }

  private readonly chainStatus: ChainStatusCache;

  /**
   * The audit chain's status. Verifying reads every row of the ledger, so requests share one
   * verification per ledger revision (see {@link ChainStatusCache}); `fresh=1` asks for a new one
   * unless one is running.
   */
  chain(params: URLSearchParams): Promise<ChainStatus> {
    return this.chainStatus.get(params.get('fresh') === '1');
  }
}
