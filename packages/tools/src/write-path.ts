/**
 * The one write path of evidence views. Every surface that stores whole views (`ewp ingest`, the
 * `ewp_evidence_view_put` tool of every binding) admits each view here, once: decoded and sealed (so the
 * store takes it as decoded instead of decoding it again) and its trusted origins checked against
 * the writer's attestation. Admitted views are written here: in batches through the store's batched
 * path, a batch that a view refuses retried view by view (each view all-or-nothing, a refused one never
 * rolls back its neighbours), with one outcome per view.
 */
import { EwpError, type EvidenceView } from '@ewp/core';
import { type EvidenceStore, type PutResult, sealView } from '@ewp/ledger';
import { type AttestationSurface, requireViewAttestation } from './origin-trust.js';

export type { AttestationSurface } from './origin-trust.js';

/** Who writes, as the attestation rule needs it. */
export interface WriterAttestation {
  /** The writer vouches for the trusted origins its views claim. */
  attested: boolean;
  /** The operator's capability accepts trusted origins at all. */
  trustedOrigins: boolean;
  /** How this surface's writers attest, for the refusal (default: the tools' `ingest_attestation: true`). */
  surface?: AttestationSurface;
}

/**
 * A view ready to write: decoded and checked once, then frozen and sealed, so what was checked is what
 * gets stored and the store does not decode it again.
 * @throws {EwpError} the decoder's refusal (`MISSING_FIELD`, …) or `EWP_REFUSE_UNATTESTED_TRUSTED_ORIGIN`.
 */
export function admitView(value: unknown, writer: WriterAttestation): EvidenceView {
  const view = sealView(value);
  requireViewAttestation(view, writer.attested, writer, writer.surface);
  return view;
}

/** What became of one admitted view: stored (or an identical re-put), or refused by the store. */
export type WriteOutcome = { view: EvidenceView; result: PutResult; refusal?: undefined } | { view: EvidenceView; refusal: EwpError; result?: undefined };

/** The outcomes of {@link writeViews}. */
export interface WriteReport {
  /** One per view, in input order, up to the view the ledger failed on. */
  outcomes: WriteOutcome[];
  /**
   * The ledger itself failed (unavailable, busy, damaged, a full disk, any error that is not a
   * refusal of a view): writing stopped there, and the views from `outcomes.length` on were not written.
   */
  failure?: unknown;
}

/** A store's error that says the ledger, not the view, failed: the run cannot go on. */
function isLedgerFailure(error: unknown): boolean {
  return !EwpError.isInstance(error) || error.code === 'EWP_REFUSE_LEDGER_UNAVAILABLE';
}

/**
 * Write admitted views ({@link admitView}) to `store`, `batchSize` views per transaction (default:
 * all in one). A batch that a view refuses rolls back whole and is then written view by view.
 * Stops at the first failure of the ledger itself.
 */
export async function writeViews(store: EvidenceStore, views: readonly EvidenceView[], options: { batchSize?: number } = {}): Promise<WriteReport> {
  const size = Math.max(1, options.batchSize ?? views.length);
  const outcomes: WriteOutcome[] = [];
  for (let from = 0; from < views.length; from += size) {
    const batch = from === 0 && size >= views.length ? views : views.slice(from, from + size);
    if (batch.length > 1) {
      try {
        const results = await store.putMany(batch);
        for (let i = 0; i < batch.length; i += 1) outcomes.push({ view: batch[i] as EvidenceView, result: results[i] as PutResult });
        continue;
      } catch (error) {
        if (isLedgerFailure(error)) return { outcomes, failure: error };
      }
    }
    for (const view of batch) {
      try {
        outcomes.push({ view, result: await store.put(view) });
      } catch (error) {
        if (isLedgerFailure(error)) return { outcomes, failure: error };
        outcomes.push({ view, refusal: error as EwpError });
      }
    }
  }
  return { outcomes };
}
