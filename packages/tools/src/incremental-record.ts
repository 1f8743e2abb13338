/**
 * Shared steps of the incremental writes (`ewp_check_record`, `ewp_evidence_record`): filling a
 * record's source with the reference's defaults, validating the records exactly as a view would
 * be, and appending them to the latest snapshot in one store transaction.
 */
import { decodeView, type EvidenceView } from '@ewp/core';
import type { EvidenceStore, LedgerRecord, PutResult } from '@ewp/ledger';
import { ToolRefusal, toRefusal } from './refusal.js';
import { argumentPath, idValue, isAbsent, isObject } from './tool-arguments.js';

/**
 * A record's source with defaults: `source_id` = `fallbackId`, `lineage_id` and `snapshot_id` =
 * the source id, `origin_type` `extract`, `origin_locator` `mcp:<source_id>`. `content_hash` and
 * `observed_at` must be given and truthy; present values are kept as given.
 */
export function sourceWithDefaults(value: unknown, fallbackId: string, path: string): Record<string, unknown> {
  if (!isAbsent(value) && !isObject(value)) throw new ToolRefusal('EWP_REFUSE_INVALID_ARGUMENTS', 'must be an object', { path: argumentPath(path) });
  const given = isObject(value) ? value : {};
  const sourceId = idValue(given.source_id, `${path}.source_id`, false) ?? fallbackId;
  if (!given.content_hash)
    throw new ToolRefusal('EWP_REFUSE_MISSING_CONTENT_HASH', 'is required (a non-empty content hash)', { path: argumentPath(`${path}.content_hash`) });
  if (!given.observed_at)
    throw new ToolRefusal('EWP_REFUSE_MISSING_OBSERVED_AT', 'is required (an ISO 8601 time)', { path: argumentPath(`${path}.observed_at`) });
  const withDefault = (key: string, fallback: string) => (isAbsent(given[key]) ? fallback : given[key]);
  return {
    ...given,
    source_id: sourceId,
    lineage_id: withDefault('lineage_id', sourceId),
    snapshot_id: withDefault('snapshot_id', sourceId),
    origin_type: withDefault('origin_type', 'extract'),
    origin_locator: withDefault('origin_locator', `mcp:${sourceId}`),
  };
}

/**
 * Validate loose records by decoding them inside a one-proposition view (docs/spec/protocol.md §4: the same
 * rules and text conversion as a put), so the store only ever receives decoded records.
 */
export function decodeRecords(
  propositionId: string,
  records: { assertions?: unknown[]; evidence?: unknown[]; checks?: unknown[] },
): Pick<EvidenceView, 'assertions' | 'evidence' | 'checks'> {
  try {
    return decodeView({ proposition_id: propositionId, view_id: 'mcp-record', ...records });
  } catch (error) {
    throw toRefusal(error);
  }
}

/** Append records to the latest snapshot (one transaction) and read back the new snapshot. */
export async function appendRecords(
  store: EvidenceStore,
  propositionId: string,
  records: LedgerRecord[],
  newViewId: string | undefined,
): Promise<{ result: PutResult; view: EvidenceView }> {
  try {
    const result = await store.extend(propositionId, records, newViewId === undefined ? undefined : { newViewId });
    const view = await store.get(result.proposition_id, result.view_id);
    if (view === undefined) {
      // The store acknowledged a write it cannot read back: the ledger, not the call, is at fault.
      throw new ToolRefusal('EWP_REFUSE_LEDGER_UNAVAILABLE', `ledger unavailable: snapshot ${result.view_id} vanished after it was written`);
    }
    return { result, view };
  } catch (error) {
    throw toRefusal(error);
  }
}
