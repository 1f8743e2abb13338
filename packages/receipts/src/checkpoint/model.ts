/**
 * The EvidenceBound data model (docs/spec/receipts.md §2), with the reference's wire names so a record serializes to
 * exactly the dict the reference hashes. Every field is always present; optional ones are `null`.
 */

/** Where a piece of evidence came from (docs/spec/receipts.md §2.1). */
export interface ProvenanceRecord {
  source: string | null;
  locator: string | null;
  retrieved_at: string | null;
  content_type: string | null;
  metadata: Record<string, unknown>;
}

/** One piece of evidence a checkpoint protects (docs/spec/receipts.md §2.2). Only `payload` enters its digest. */
export interface EvidenceRecord {
  evidence_id: string;
  /** Any EBCJ-1 value; `null` means the evidence is missing. */
  payload: unknown;
  provenance: ProvenanceRecord | null;
  observed_at: string | null;
  /** RFC 3339 instant with an offset; past it (strictly) the evidence is STALE. */
  valid_until: string | null;
  explicitly_refuted: boolean;
}

/** The policy a checkpoint was created under (docs/spec/receipts.md §2.3). */
export interface PolicyBinding {
  policy_id: string;
  version: string;
  require_provenance: boolean;
  /** Bound into the checkpoint digest; nothing in the reference reads it. */
  consequential: boolean;
}

/** A protected unit of agent work: evidence, output and policy (docs/spec/receipts.md §2.4). */
export interface Checkpoint {
  checkpoint_id: string;
  agent: string;
  evidence: EvidenceRecord[];
  /** Any EBCJ-1 value. */
  output: unknown;
  policy: PolicyBinding;
  depends_on: string[];
  operation_id: string | null;
  schema_version: string;
}

export type ProvenanceInput = Partial<ProvenanceRecord> & { source: string | null };
export type EvidenceInput = Partial<Omit<EvidenceRecord, 'provenance'>> & {
  evidence_id: string;
  payload: unknown;
  provenance: ProvenanceInput | null;
};
export type PolicyInput = Partial<PolicyBinding> & { policy_id: string; version: string };
export type CheckpointInput = Partial<Omit<Checkpoint, 'evidence' | 'policy'>> & {
  checkpoint_id: string;
  agent: string;
  evidence: EvidenceInput[];
  output: unknown;
  policy: PolicyInput;
};

/** A provenance record with the reference's defaults applied. */
export function provenanceRecord(input: ProvenanceInput): ProvenanceRecord {
  return {
    source: input.source,
    locator: input.locator ?? null,
    retrieved_at: input.retrieved_at ?? null,
    content_type: input.content_type ?? null,
    metadata: input.metadata ?? {},
  };
}

/** An evidence record with the reference's defaults applied. */
export function evidenceRecord(input: EvidenceInput): EvidenceRecord {
  return {
    evidence_id: input.evidence_id,
    payload: input.payload,
    provenance: input.provenance === null ? null : provenanceRecord(input.provenance),
    observed_at: input.observed_at ?? null,
    valid_until: input.valid_until ?? null,
    explicitly_refuted: input.explicitly_refuted ?? false,
  };
}

/** A policy binding with the reference's defaults (`require_provenance` and `consequential` true). */
export function policyBinding(input: PolicyInput): PolicyBinding {
  return {
    policy_id: input.policy_id,
    version: input.version,
    require_provenance: input.require_provenance ?? true,
    consequential: input.consequential ?? true,
  };
}

/** A checkpoint with the reference's defaults (`depends_on` [], `operation_id` null, schema "1"). */
export function checkpoint(input: CheckpointInput): Checkpoint {
  return {
    checkpoint_id: input.checkpoint_id,
    agent: input.agent,
    evidence: input.evidence.map(evidenceRecord),
    output: input.output,
    policy: policyBinding(input.policy),
    depends_on: [...(input.depends_on ?? [])],
    operation_id: input.operation_id ?? null,
    schema_version: input.schema_version ?? '1',
  };
}

/** True when provenance exists and both `source` and `locator` are non-empty strings (docs/spec/receipts.md §2.1). */
export function isProvenanceComplete(provenance: ProvenanceRecord | null): boolean {
  return (
    provenance !== null &&
    typeof provenance.source === 'string' &&
    provenance.source.length > 0 &&
    typeof provenance.locator === 'string' &&
    provenance.locator.length > 0
  );
}

/** The serialized form of a provenance record (exactly its five keys). */
function provenancePayload(p: ProvenanceRecord): Record<string, unknown> {
  return {
    source: p.source,
    locator: p.locator,
    retrieved_at: p.retrieved_at,
    content_type: p.content_type,
    metadata: p.metadata,
  };
}

/** The serialized form of an evidence record (exactly its six keys). */
export function evidencePayload(e: EvidenceRecord): Record<string, unknown> {
  return {
    evidence_id: e.evidence_id,
    payload: e.payload,
    provenance: e.provenance === null ? null : provenancePayload(e.provenance),
    observed_at: e.observed_at,
    valid_until: e.valid_until,
    explicitly_refuted: e.explicitly_refuted,
  };
}

/** The serialized form of a policy binding (exactly its four keys). */
export function policyPayload(p: PolicyBinding): Record<string, unknown> {
  return {
    policy_id: p.policy_id,
    version: p.version,
    require_provenance: p.require_provenance,
    consequential: p.consequential,
  };
}

/** The protected payload of a checkpoint: exactly the eight keys of docs/spec/receipts.md §2.4. */
export function checkpointPayload(cp: Checkpoint): Record<string, unknown> {
  return {
    checkpoint_id: cp.checkpoint_id,
    agent: cp.agent,
    evidence: cp.evidence.map(evidencePayload),
    output: cp.output,
    policy: policyPayload(cp.policy),
    depends_on: [...cp.depends_on],
    operation_id: cp.operation_id,
    schema_version: cp.schema_version,
  };
}
