/**
 * WarrantRetriever: wraps any LangChain retriever and puts each document's warrant axes in its
 * metadata (`metadata.ewp`), dropping or flagging documents below a chosen acceptance. A result
 * cut to `k` evaluates DEGRADED views: the documents left out may be the contradictors.
 */
import {
  type Acceptance,
  AXIS_VALUES,
  DEFAULT_FRESHNESS_SECONDS,
  type EvidenceView,
  InvalidArgumentError,
  type Policy,
  REFERENCE_V2,
  warrantNow,
} from '@ewp/core';
import type { EvidenceStore } from '@ewp/ledger';
import type { CallbackManagerForRetrieverRun } from '@langchain/core/callbacks/manager';
import type { DocumentInterface } from '@langchain/core/documents';
import { BaseRetriever, type BaseRetrieverInput } from '@langchain/core/retrievers';
import { sha256Hex } from '../ledger/sha256.js';
import { type Warrant, warrantOf } from '../warrant.js';

/** What `metadata.ewp` holds on each returned document: its proposition's warrant at the time of the read. */
export interface DocumentWarrant extends Warrant {
  /** True when acceptance is below `minAcceptance` (only kept in `flag` mode). */
  belowMinAcceptance: boolean;
}

export interface WarrantRetrieverOptions extends BaseRetrieverInput {
  retriever: BaseRetriever;
  ledger: EvidenceStore;
  /** The proposition a document supports. Default: `metadata.proposition_id` (the document's stored metadata), else `doc:<id or content hash>`. */
  propositionOf?: (document: DocumentInterface) => string | undefined;
  /** Keep at most this many documents; more from the inner retriever makes the kept ones DEGRADED. */
  k?: number;
  /**
   * The inner retriever's own cut (e.g. a vector store retriever's `k`): a result of exactly this
   * many documents may have been cut, so it is DEGRADED too.
   */
  innerLimit?: number;
  /** Acceptance below which documents are dropped or flagged. Default: none. */
  minAcceptance?: Acceptance;
  /** `drop` (default) removes documents below `minAcceptance`; `flag` keeps them marked. */
  belowMinAcceptance?: 'drop' | 'flag';
  now?: () => Date;
}

/** Acceptance values ranked by the protocol's own order (UNACCEPTED lowest). */
const RANK = Object.fromEntries(AXIS_VALUES.acceptance.map((value, rank) => [value, rank])) as Record<Acceptance, number>;

/** A retriever whose documents carry their warrant. */
export class WarrantRetriever extends BaseRetriever {
  lc_namespace = ['ewp', 'langchain', 'retrievers'];
  readonly retriever: BaseRetriever;
  readonly ledger: EvidenceStore;
  readonly #options: WarrantRetrieverOptions;
  readonly #now: () => Date;
  readonly #policy: Policy = REFERENCE_V2;

  constructor(options: WarrantRetrieverOptions) {
    // Only the retriever's own fields go to the base class (it keeps them for serialization).
    super({ callbacks: options.callbacks, tags: options.tags, metadata: options.metadata, verbose: options.verbose });
    if (options.k !== undefined && (!Number.isInteger(options.k) || options.k < 1)) {
      throw new InvalidArgumentError('k', `must be a positive integer, got ${String(options.k)}`);
    }
    if (options.minAcceptance !== undefined && !(options.minAcceptance in RANK)) {
      throw new InvalidArgumentError('minAcceptance', `must be ${AXIS_VALUES.acceptance.join(', ')}, got ${String(options.minAcceptance)}`);
    }
    this.retriever = options.retriever;
    this.ledger = options.ledger;
    this.#options = options;
    this.#now = options.now ?? (() => new Date());
  }

  override async _getRelevantDocuments(query: string, runManager?: CallbackManagerForRetrieverRun): Promise<DocumentInterface[]> {
    const all = await this.retriever.invoke(query, runManager?.getChild('inner'));
    const k = this.#options.k;
    const kept = k === undefined ? all : all.slice(0, k);
    const dropped = k === undefined ? [] : all.slice(k);
    const innerCut = this.#options.innerLimit !== undefined && all.length >= this.#options.innerLimit;
    const cut = dropped.length > 0 || innerCut;
    const omitted = await Promise.all(dropped.map(async (d, i) => `retriever:${await this.#documentKey(d, k! + i)}`));
    const evaluatedAt = this.#now().toISOString();
    const views = new Map<string, { view: EvidenceView; unrecorded: boolean }>();
    const out: DocumentInterface[] = [];
    for (const [i, document] of kept.entries()) {
      const pid = (this.#options.propositionOf ?? defaultPropositionOf)(document) ?? `doc:${await this.#documentKey(document, i)}`;
      let entry = views.get(pid);
      if (entry === undefined) {
        const stored = await this.ledger.get(pid);
        entry = stored === undefined ? { view: await unrecordedView(pid, document, evaluatedAt), unrecorded: true } : { view: stored, unrecorded: false };
        views.set(pid, entry);
      }
      let view = entry.view;
      if (cut) {
        view = {
          ...view,
          view_id: `${view.view_id}#topk`,
          degraded: true,
          retrieval_scope: 'langchain.retriever.topk',
          omitted_sources: [...view.omitted_sources, ...omitted],
        };
      }
      const w = warrantNow(view, this.#policy, evaluatedAt);
      const below = this.#options.minAcceptance !== undefined && RANK[w.warrant.acceptance] < RANK[this.#options.minAcceptance];
      if (below && (this.#options.belowMinAcceptance ?? 'drop') === 'drop') continue;
      const ewp: DocumentWarrant = { ...warrantOf(w, { cut, unrecorded: entry.unrecorded }), belowMinAcceptance: below };
      out.push({ ...document, metadata: { ...document.metadata, ewp } });
    }
    return out;
  }

  async #documentKey(document: DocumentInterface, index: number): Promise<string> {
    if (typeof document.id === 'string' && document.id !== '') return document.id;
    const declared = document.metadata?.id;
    if (typeof declared === 'string' && declared !== '') return declared;
    return `sha256:${(await sha256Hex(document.pageContent)).slice(0, 16)}#${index}`;
  }
}

function defaultPropositionOf(document: DocumentInterface): string | undefined {
  const declared = document.metadata?.proposition_id;
  return typeof declared === 'string' && declared !== '' ? declared : undefined;
}

/**
 * A document with no recorded evidence reads as one extracted claim of unknown completeness:
 * never verified, DEGRADED (scope `langchain.retriever.unrecorded`).
 */
async function unrecordedView(pid: string, document: DocumentInterface, at: string): Promise<EvidenceView> {
  const hash = await sha256Hex(document.pageContent);
  const sourceId = `retriever:${hash.slice(0, 16)}`;
  return {
    proposition_id: pid,
    view_id: 'unrecorded',
    assertions: [
      {
        assertion_id: `${sourceId}:a`,
        proposition_id: pid,
        text: document.pageContent,
        asserted_by: 'langchain.retriever',
        assertion_confidence: 0.5,
        asserted_at: at,
        source: {
          source_id: sourceId,
          lineage_id: sourceId,
          origin_type: 'extract',
          origin_locator: sourceId,
          snapshot_id: hash.slice(0, 16),
          content_hash: `sha256:${hash}`,
          observed_at: at,
          extractor_id: 'langchain.retriever',
          parent_source_id: null,
        },
      },
    ],
    evidence: [],
    lineage: [],
    conflicts: [],
    checks: [],
    omitted_sources: [],
    retrieval_scope: 'langchain.retriever.unrecorded',
    degraded: false,
    freshness_policy_seconds: DEFAULT_FRESHNESS_SECONDS,
    adapter_meta: {},
    subjects: [],
  };
}
