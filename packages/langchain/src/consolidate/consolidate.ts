/**
 * The consolidation gate: a summary of several memories is written as a new assertion with the
 * endogenous origin `summary` and `derived_from` lineage to what it summarizes. It carries no
 * check (so it never raises verification), and it inherits every dispute, resolution and
 * incompleteness of its sources as rows of its own view: "X is disputed" never becomes "X".
 */
import {
  type Assertion,
  type Conflict,
  type EvidenceView,
  InvalidArgumentError,
  type LineageEdge,
  type Policy,
  REFERENCE_V2,
  warrantNow,
  type WarrantView,
} from '@ewp/core';
import { type Warrant, warrantOf } from '../warrant.js';
import { type EvidenceStore, type LedgerRecord, MissingViewError, type PutResult } from '@ewp/ledger';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { HumanMessage, SystemMessage } from '@langchain/core/messages';
import { sha256Hex } from '../ledger/sha256.js';
import { stableJson } from '../ledger/stable-json.js';

export interface ConsolidateOptions {
  /** The summary's proposition. */
  propositionId: string;
  /** The propositions summarized (each must have a stored snapshot). */
  sources: string[];
  /** The summary text; or give `model` to write it. */
  text?: string;
  /** A chat model that writes the summary from the sources and their warrant. */
  model?: Pick<BaseChatModel, 'invoke'>;
  /** `asserted_by` and `extractor_id` of the summary (default `ewp.consolidate`). */
  summarizedBy?: string;
  /** Time of the summary and of the source evaluation (default now). */
  at?: string;
  /** Snapshot id of the summary view (default: derived). */
  viewId?: string;
}

/** What each source contributed to the summary's view. */
export interface InheritedStatus {
  propositionId: string;
  viewId: string;
  conflict: WarrantView['warrant']['conflict'];
  sufficiency: WarrantView['warrant']['sufficiency'];
  currency: WarrantView['warrant']['currency'];
  verification: WarrantView['warrant']['verification'];
}

export interface ConsolidateResult {
  put: PutResult;
  /** The summary assertion. */
  assertion: Assertion;
  /** The summary's warrant at `at`. */
  warrant: Warrant;
  sources: InheritedStatus[];
}

const POLICY: Policy = REFERENCE_V2;

/** Write a summary of `sources` as the proposition `propositionId`; see the module comment. */
export async function consolidate(ledger: EvidenceStore, options: ConsolidateOptions): Promise<ConsolidateResult> {
  const { propositionId: pid, sources } = options;
  if (typeof pid !== 'string' || pid === '') throw new InvalidArgumentError('propositionId', 'must be a non-empty string');
  if (!Array.isArray(sources) || sources.length === 0 || sources.some((s) => typeof s !== 'string' || s === '')) {
    throw new InvalidArgumentError('sources', 'must be a non-empty list of proposition ids');
  }
  if (sources.includes(pid)) throw new InvalidArgumentError('sources', `a summary cannot derive from itself (${JSON.stringify(pid)})`);
  if ((options.text === undefined) === (options.model === undefined)) {
    throw new InvalidArgumentError('text, model', 'give exactly one');
  }
  const at = options.at ?? new Date().toISOString();
  const by = options.summarizedBy ?? 'ewp.consolidate';

  const read: Array<{ view: EvidenceView; warrant: WarrantView }> = [];
  for (const source of new Set(sources)) {
    const view = await ledger.get(source);
    if (view === undefined) {
      throw new MissingViewError(source);
    }
    read.push({ view, warrant: warrantNow(view, POLICY, at) });
  }

  const text = options.text ?? (await writeSummary(options.model!, read));
  const hash = await sha256Hex(stableJson({ text, sources: read.map((r) => [r.view.proposition_id, r.view.view_id]) }));
  const sourceId = `summary:${hash.slice(0, 16)}`;
  const assertion: Assertion = {
    assertion_id: `${sourceId}:a`,
    proposition_id: pid,
    text,
    asserted_by: by,
    assertion_confidence: 0.5,
    asserted_at: at,
    source: {
      source_id: sourceId,
      lineage_id: sourceId,
      origin_type: 'summary',
      origin_locator: `ewp:consolidate:${pid}`,
      snapshot_id: hash.slice(0, 16),
      content_hash: `sha256:${hash}`,
      observed_at: at,
      extractor_id: by,
      parent_source_id: null,
    },
  };
  const lineage: LineageEdge[] = read.map((r) => ({ from_id: pid, to_id: r.view.proposition_id, kind: 'derived_from' }));
  const conflicts: Conflict[] = [];
  const omitted: string[] = [];
  let degraded = false;
  for (const { view, warrant } of read) {
    const src = view.proposition_id;
    const axes = warrant.warrant;
    if (axes.conflict !== 'NONE') {
      const open = axes.conflict === 'OPEN';
      const rows = open ? warrant.open_conflicts : warrant.resolved_conflicts;
      conflicts.push({
        conflict_id: `inherited:${src}`,
        proposition_ids: [pid, src],
        status: open ? 'open' : 'resolved',
        note: `inherited from ${src} (${open ? 'disputed' : 'resolved'}${rows.length ? `: ${rows.join(', ')}` : ', implied by its evidence'})`,
      });
    }
    if (axes.sufficiency === 'DEGRADED') {
      degraded = true;
      omitted.push(...view.omitted_sources.filter((o) => !omitted.includes(o)));
    }
  }

  const existing = await ledger.get(pid);
  let put: PutResult;
  if (existing === undefined) {
    put = await ledger.put({
      proposition_id: pid,
      view_id: options.viewId ?? null,
      assertions: [assertion],
      lineage,
      conflicts,
      omitted_sources: omitted,
      degraded,
      retrieval_scope: degraded ? 'summary.of-degraded' : 'complete',
    });
  } else {
    // The summary proposition exists: append, replacing inherited rows by their current status.
    if (degraded && !existing.degraded) {
      // A snapshot's completeness fields are its own; extend() carries them over unchanged, so an
      // incomplete source must be stated with put() of the whole new snapshot.
      put = await ledger.put({
        ...existing,
        view_id: options.viewId ?? null,
        assertions: [...existing.assertions, assertion],
        lineage: [
          ...existing.lineage,
          ...lineage.filter((l) => !existing.lineage.some((e) => e.to_id === l.to_id && e.kind === l.kind && e.from_id === l.from_id)),
        ],
        conflicts: [...existing.conflicts.filter((c) => !conflicts.some((n) => n.conflict_id === c.conflict_id)), ...conflicts],
        omitted_sources: [...new Set([...existing.omitted_sources, ...omitted])],
        degraded: true,
      });
    } else {
      const records: LedgerRecord[] = [
        { kind: 'assertion', record: assertion },
        ...lineage.map((record): LedgerRecord => ({ kind: 'lineage', record })),
        ...conflicts.map((record): LedgerRecord => ({ kind: 'conflict', record })),
      ];
      put = await ledger.extend(pid, records, options.viewId === undefined ? {} : { newViewId: options.viewId });
    }
  }
  const stored = (await ledger.get(pid, put.view_id))!;
  return {
    put,
    assertion,
    warrant: warrantOf(warrantNow(stored, POLICY, at), { cut: false, unrecorded: false }),
    sources: read.map(({ view, warrant }) => ({
      propositionId: view.proposition_id,
      viewId: view.view_id,
      conflict: warrant.warrant.conflict,
      sufficiency: warrant.warrant.sufficiency,
      currency: warrant.warrant.currency,
      verification: warrant.warrant.verification,
    })),
  };
}

/** Ask the model for a summary that states each source's status (disputed stays disputed). */
async function writeSummary(model: Pick<BaseChatModel, 'invoke'>, read: Array<{ view: EvidenceView; warrant: WarrantView }>): Promise<string> {
  const lines = read.map(({ view, warrant }) => {
    const w = warrant.warrant;
    const status = `acceptance=${w.acceptance} conflict=${w.conflict} verification=${w.verification} currency=${w.currency} sufficiency=${w.sufficiency}`;
    const texts = [...new Set(view.assertions.map((a) => a.text))].map((t) => `  - ${t}`).join('\n');
    return `${view.proposition_id} [${status}]\n${texts}`;
  });
  const reply = await model.invoke([
    new SystemMessage(
      'Summarize these memories in a few sentences. Keep every status: if a memory is disputed (conflict=OPEN), say it is disputed; never state it as fact. Do not claim anything was verified.',
    ),
    new HumanMessage(lines.join('\n')),
  ]);
  const content = reply.content;
  const text = typeof content === 'string' ? content : reply.text;
  if (text.trim() === '') throw new InvalidArgumentError('model', 'returned an empty summary');
  return text;
}
