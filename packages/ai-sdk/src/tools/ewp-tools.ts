/**
 * `ewpTools()`: the EWP tool set for the Vercel AI SDK. Read tools always; write tools only with
 * an ingest capability.
 */
import type { RiskPolicy } from '@ewp/core';
import type { EvidenceStore } from '@ewp/ledger';
import type { IngestCapability } from './attestation.js';
import { checkRecordTool, evidenceRecordTool, viewPutTool } from './ingest-tools.js';
import { mayActTool, memoryContextTool, warrantNowTool } from './read-tools.js';

export interface EwpToolsOptions {
  /** Where evidence is kept (MemoryEvidenceStore, SqliteEvidenceStore, …). */
  store: EvidenceStore;
  /**
   * The ingest capability: pass it to get the write tools (`ewp_evidence_view_put`,
   * `ewp_evidence_record`, `ewp_check_record`). Without it the model cannot write at all.
   */
  ingest?: IngestCapability | true;
  /** The operator's action policy for `ewp_may_act`. */
  riskPolicy?: RiskPolicy;
  /** The clock for evaluation and decisions. Default `() => new Date()`. */
  now?: () => Date;
}

/** The tools every caller gets. */
export type ReadTools = {
  ewp_warrant_now: ReturnType<typeof warrantNowTool>;
  ewp_may_act: ReturnType<typeof mayActTool>;
  ewp_memory_context: ReturnType<typeof memoryContextTool>;
};

/** The tools an ingest capability adds. */
export type IngestTools = {
  ewp_evidence_view_put: ReturnType<typeof viewPutTool>;
  ewp_evidence_record: ReturnType<typeof evidenceRecordTool>;
  ewp_check_record: ReturnType<typeof checkRecordTool>;
};

/**
 * AI SDK 6 tools over an EvidenceStore.
 *
 * @example
 * const tools = ewpTools({ store });
 * const { text } = await generateText({ model, tools, prompt: 'Is server01 on Windows 2022?' });
 */
export function ewpTools(options: EwpToolsOptions & { ingest: IngestCapability | true }): ReadTools & IngestTools;
export function ewpTools(options: EwpToolsOptions): ReadTools & Partial<IngestTools>;
export function ewpTools(options: EwpToolsOptions): ReadTools & Partial<IngestTools> {
  if (options === null || typeof options !== 'object' || options.store === undefined) {
    throw new TypeError('store: an EvidenceStore is required');
  }
  const now = options.now ?? (() => new Date());
  const ingestCapability = options.ingest === undefined ? undefined : options.ingest === true ? {} : options.ingest;
  const read = { store: options.store, now, riskPolicy: options.riskPolicy, ingest: ingestCapability };
  const tools: ReadTools = {
    ewp_warrant_now: warrantNowTool(read),
    ewp_may_act: mayActTool(read),
    ewp_memory_context: memoryContextTool(read),
  };
  if (ingestCapability === undefined) return tools;
  const ingest = { store: options.store, ingest: ingestCapability };
  return {
    ...tools,
    ewp_evidence_view_put: viewPutTool(ingest),
    ewp_evidence_record: evidenceRecordTool(ingest),
    ewp_check_record: checkRecordTool(ingest),
  };
}
