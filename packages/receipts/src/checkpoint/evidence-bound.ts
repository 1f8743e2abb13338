import { domainDigest } from '@ewp/canonical';
import { sortedByCodePoint } from '@ewp/core';
import { CheckpointError } from '../errors.js';
import { DependencyGraph } from '../graph/dependency-graph.js';
import { type InvalidationReason, type RecoveryPlan, planRecovery } from '../recovery/recovery-plan.js';
import {
  type Checkpoint,
  type EvidenceInput,
  type PolicyBinding,
  type PolicyInput,
  evidencePayload,
  evidenceRecord,
  policyBinding,
  policyPayload,
} from './model.js';
import { type VerificationResult, type VerifyCheckpointOptions, verifyCheckpoint } from './verification.js';

/** Events the facade emits (docs/spec/receipts.md §7.3), for logs and audit chains. */
export type EvidenceBoundEvent =
  | { type: 'checkpoint_created'; checkpoint_id: string; agent: string }
  | { type: 'verification_completed'; checkpoint_id: string; action: string; applicability: string }
  | { type: 'integrity_failed'; checkpoint_id: string }
  | { type: 'action_blocked'; checkpoint_id: string; decision: string }
  | { type: 'invalidation_started'; checkpoint_id: string; reason: string }
  | { type: 'blast_radius_computed'; checkpoint_id: string; affected: string[] }
  | {
      type: 'recovery_planned';
      recompute: string[];
      reusable: string[];
      requires_verification: string[];
      blocked: string[];
    };

/** Input of {@link EvidenceBound.createCheckpoint}. */
export interface CreateCheckpointInput {
  agent: string;
  evidence: EvidenceInput[];
  output: unknown;
  depends_on?: string[];
  operation_id?: string | null;
  /** Omit for the automatic id (docs/spec/receipts.md §2.5). */
  checkpoint_id?: string;
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/**
 * The reference facade (docs/spec/receipts.md §2.5, §7.3): creates checkpoints under one policy, verifies them,
 * remembers the latest result per checkpoint, and plans recovery after an invalidation.
 *
 * Stored checkpoints and the results it issues are deep-frozen copies, so a result it issued for a
 * stored checkpoint is bound to it by construction and planning need not re-hash it.
 */
export class EvidenceBound {
  readonly policy: PolicyBinding;
  readonly #checkpoints = new Map<string, Checkpoint>();
  readonly #results = new Map<string, VerificationResult>();
  /** result → the frozen checkpoint it was computed from. */
  readonly #issuedFor = new WeakMap<VerificationResult, Checkpoint>();
  readonly #onEvent: ((event: EvidenceBoundEvent) => void) | undefined;
  #graph: DependencyGraph<Checkpoint> | undefined;

  constructor(policy: PolicyInput, options: { onEvent?: (event: EvidenceBoundEvent) => void } = {}) {
    this.policy = deepFreeze(policyBinding(policy));
    this.#onEvent = options.onEvent;
  }

  #emit(event: EvidenceBoundEvent): void {
    this.#onEvent?.(event);
  }

  /**
   * Creates a checkpoint under the facade's policy.
   * @throws {CheckpointError} `DUPLICATE_CHECKPOINT_ID`, `DUPLICATE_EVIDENCE_IDS`, `UNKNOWN_DEPENDENCIES`.
   * A dependency listed twice is accepted here and refused as a cycle by the graph, as in the reference.
   */
  createCheckpoint(input: CreateCheckpointInput): Checkpoint {
    const evidence = input.evidence.map(evidenceRecord);
    const dependsOn = [...(input.depends_on ?? [])];
    const operationId = input.operation_id ?? null;
    const id =
      input.checkpoint_id ??
      domainDigest('checkpoint-id', {
        agent: input.agent,
        evidence: evidence.map(evidencePayload),
        output: input.output,
        depends_on: dependsOn,
        policy: policyPayload(this.policy),
        operation_id: operationId,
      }).slice(0, 24);
    if (this.#checkpoints.has(id)) throw new CheckpointError('DUPLICATE_CHECKPOINT_ID', `duplicate checkpoint id: ${id}`);
    if (new Set(evidence.map((e) => e.evidence_id)).size !== evidence.length) {
      throw new CheckpointError('DUPLICATE_EVIDENCE_IDS', 'duplicate evidence ids are not allowed');
    }
    const unknown = sortedByCodePoint([...new Set(dependsOn.filter((d) => !this.#checkpoints.has(d)))]);
    if (unknown.length > 0) {
      throw new CheckpointError('UNKNOWN_DEPENDENCIES', `unknown dependencies: [${unknown.map((u) => `'${u}'`).join(', ')}]`);
    }
    const cp: Checkpoint = deepFreeze(
      structuredClone({
        checkpoint_id: id,
        agent: input.agent,
        evidence,
        output: input.output,
        policy: { ...this.policy },
        depends_on: dependsOn,
        operation_id: operationId,
        schema_version: '1',
      }),
    );
    this.#checkpoints.set(id, cp);
    this.#graph = undefined;
    this.#emit({ type: 'checkpoint_created', checkpoint_id: id, agent: cp.agent });
    return cp;
  }

  /** A stored checkpoint. */
  checkpoint(id: string): Checkpoint | undefined {
    return this.#checkpoints.get(id);
  }

  /** The latest remembered verification result of a checkpoint. */
  result(id: string): VerificationResult | undefined {
    return this.#results.get(id);
  }

  /**
   * Verifies a stored checkpoint (`expectedPolicy` defaults to the facade's policy) and remembers
   * the result. @throws {CheckpointError} `UNKNOWN_CHECKPOINT` for an id not stored; @throws {TimestampError}
   */
  verify(id: string, options: VerifyCheckpointOptions = {}): VerificationResult {
    const cp = this.#checkpoints.get(id);
    if (cp === undefined) throw new CheckpointError('UNKNOWN_CHECKPOINT', `unknown checkpoint: ${id}`);
    const result = deepFreeze(
      verifyCheckpoint(cp, { ...options, expectedPolicy: options.expectedPolicy === undefined ? this.policy : options.expectedPolicy }),
    );
    this.#results.set(id, result);
    this.#issuedFor.set(result, cp);
    this.#emit({ type: 'verification_completed', checkpoint_id: id, action: result.action, applicability: result.applicability });
    if (result.integrity === 'FAILED') this.#emit({ type: 'integrity_failed', checkpoint_id: id });
    if (result.action !== 'ALLOW') this.#emit({ type: 'action_blocked', checkpoint_id: id, decision: result.action });
    return result;
  }

  /** The dependency graph of every created checkpoint. @throws {GraphError} */
  graph(): DependencyGraph<Checkpoint> {
    this.#graph ??= new DependencyGraph(this.#checkpoints.values());
    return this.#graph;
  }

  /**
   * Invalidates one checkpoint and plans recovery over all checkpoints and remembered results.
   * @throws {GraphError}
   */
  invalidate(id: string, reason: InvalidationReason, consequential: Iterable<string> = []): RecoveryPlan {
    this.#emit({ type: 'invalidation_started', checkpoint_id: id, reason });
    const graph = this.graph();
    this.#emit({ type: 'blast_radius_computed', checkpoint_id: id, affected: graph.blastRadius([id]) });
    const plan = planRecovery(graph, { [id]: reason }, this.#results, consequential, {
      // Frozen result issued for the frozen node now in the graph: bound by construction.
      isBound: (result, node) => this.#issuedFor.get(result) === node,
    });
    this.#emit({
      type: 'recovery_planned',
      recompute: plan.recompute,
      reusable: plan.reusable,
      requires_verification: plan.requires_verification,
      blocked: plan.blocked,
    });
    return plan;
  }
}
