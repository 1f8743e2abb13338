/**
 * `ewp checkpoint create|verify|invalidate`: EvidenceBound checkpoints (docs/spec/receipts.md §2, §3, §6,
 * §9) in a SQLite receipt store: a checkpoint of an agent's output with the evidence it rests on, its
 * verification (integrity, applicability, the action it permits) and the proof receipt, committed as one
 * bundle; and the recovery plan after a checkpoint is invalidated.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { EwpError, parseJsonStrict } from '@ewp/core';
import type { SqliteReceiptStore } from '@ewp/receipts';
import { type CliIO, type Command, EXIT_OK, EXIT_SOME_FAILED, EXIT_USAGE } from '../cli-io.js';
import { parseVerbArguments, usageError } from '../verb-arguments.js';

const HELP = `usage: ewp checkpoint create     <checkpoint.json> --receipts FILE [--now ISO]
       ewp checkpoint verify     <checkpoint-id> --receipts FILE [--now ISO] [--evidence current.json]
       ewp checkpoint invalidate <checkpoint-id> --reason REASON --receipts FILE [--consequential ID,ID]

EvidenceBound checkpoints in a SQLite receipt store (--receipts, created when missing).
create: checkpoint.json is {"agent", "evidence": [{"evidence_id", "payload", "provenance", ...}], "output",
  "policy": {"policy_id", "version", ...}, "depends_on"?, "operation_id"?, "checkpoint_id"?}; every
  dependency must be stored. It is verified at --now (default: now) and committed with its verification
  and proof receipt in one transaction; an operation_id is applied once (the same bundle again is
  ALREADY_APPLIED, another payload a refusal). Prints the verification as JSON.
verify: verifies a stored checkpoint again at --now, against --evidence (the evidence available now, by
  id) when given, and prints it; it is stored unless the checkpoint was created under an operation_id
  (an operation is applied once, with the bundle it was created with).
invalidate: plans recovery after the checkpoint is invalidated for REASON (evidence_changed,
  evidence_stale, evidence_refuted, ...): what to recompute, reuse, verify again and what is blocked
  (--consequential: checkpoints whose action is consequential). Prints the plan; the store is unchanged.

Exit: 0 created / verified with action ALLOW / planned; 1 verified but the action is not ALLOW, or the
input is refused (its code and field on stderr; nothing written); 2 unusable arguments, file or store.
`;

function parse(args: string[]) {
  return parseArgs({
    args,
    allowPositionals: true,
    options: {
      receipts: { type: 'string' },
      now: { type: 'string' },
      evidence: { type: 'string' },
      reason: { type: 'string' },
      consequential: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

function readJson(io: CliIO, file: string): unknown {
  return parseJsonStrict(readFileSync(resolve(io.cwd, file)));
}

export const checkpointCommand: Command = async (args: string[], io: CliIO) => {
  const parsed = parseVerbArguments('checkpoint', HELP, io, () => parse(args));
  if (typeof parsed === 'number') return parsed;
  const { values, positionals } = parsed;
  const [sub, target, ...rest] = positionals;
  if (sub !== 'create' && sub !== 'verify' && sub !== 'invalidate') return usageError('checkpoint', 'expected create, verify or invalidate', io);
  if (target === undefined || rest.length > 0)
    return usageError('checkpoint', `${sub} takes one ${sub === 'create' ? 'checkpoint file' : 'checkpoint id'}`, io);
  if (values.receipts === undefined) return usageError('checkpoint', '--receipts FILE names the receipt store', io);
  if (sub === 'invalidate' && values.reason === undefined) return usageError('checkpoint', 'invalidate needs --reason', io);
  if (sub !== 'invalidate' && (values.reason !== undefined || values.consequential !== undefined))
    return usageError('checkpoint', '--reason and --consequential are for invalidate', io);
  if (sub !== 'verify' && values.evidence !== undefined) return usageError('checkpoint', '--evidence is for verify', io);
  if (sub === 'invalidate' && values.now !== undefined) return usageError('checkpoint', '--now is for create and verify', io);
  const now = values.now ?? new Date().toISOString();
  const receipts = await import('@ewp/receipts');
  let store: SqliteReceiptStore;
  try {
    store = await receipts.openSqliteReceiptStore(resolve(io.cwd, values.receipts));
  } catch (error) {
    io.stderr.write(`ewp checkpoint: unusable receipt store: ${(error as Error).message}\n`);
    return EXIT_USAGE;
  }
  try {
    if (sub === 'invalidate') {
      const { graph, verification } = store.loadRecoveryState();
      if (!graph.has(target)) throw new receipts.CheckpointError('UNKNOWN_CHECKPOINT', `unknown checkpoint: ${target}`);
      const consequential = values.consequential === undefined ? [] : values.consequential.split(',').filter((id) => id !== '');
      const plan = receipts.planRecovery(graph, { [target]: values.reason as string }, verification, consequential);
      io.stdout.write(`${JSON.stringify(plan.toJSON(), null, 2)}\n`);
      return EXIT_OK;
    }
    let cp: ReturnType<SqliteReceiptStore['loadCheckpoint']>;
    if (sub === 'create') {
      const input = readJson(io, target) as Record<string, unknown>;
      if (input === null || typeof input !== 'object' || Array.isArray(input))
        throw new EwpError('NOT_AN_OBJECT', 'a checkpoint file holds one JSON object', { path: '$' });
      // The facade checks the input and derives the id. It refuses a dependency it does not hold, so
      // the stored checkpoints the input names stand in for them (only their ids matter to that check).
      const bound = new receipts.EvidenceBound(input.policy as never);
      const stored = store.loadGraph();
      const named = Array.isArray(input.depends_on) ? input.depends_on : [];
      for (const id of new Set(named.filter((d): d is string => typeof d === 'string' && stored.has(d)))) {
        const node = stored.get(id);
        bound.createCheckpoint({ agent: node.agent, evidence: node.evidence, output: node.output, checkpoint_id: id });
      }
      cp = bound.createCheckpoint(input as never);
    } else {
      cp = store.loadCheckpoint(target);
      if (cp === null) throw new receipts.CheckpointError('UNKNOWN_CHECKPOINT', `unknown checkpoint: ${target}`);
    }
    const currentEvidence = values.evidence === undefined ? undefined : (readJson(io, values.evidence) as Record<string, never>);
    const result = receipts.verifyCheckpoint(cp, { now, ...(currentEvidence === undefined ? {} : { currentEvidence }) });
    // An operation is applied once, with the bundle it was created with: a later verification of its
    // checkpoint is printed, not stored (storing it would be the same operation with another bundle).
    const applied =
      sub === 'create' || cp.operation_id === null
        ? store.commitBundle(cp, result, cp.operation_id, cp.operation_id === null ? null : { checkpoint_id: cp.checkpoint_id })
        : null;
    io.stdout.write(`${JSON.stringify({ ...result, ...(applied === null ? {} : { operation: applied }) }, null, 2)}\n`);
    return result.action === 'ALLOW' ? EXIT_OK : EXIT_SOME_FAILED;
  } catch (error) {
    if (!EwpError.isInstance(error)) {
      io.stderr.write(`ewp checkpoint: ${(error as Error).message}\n`);
      return EXIT_USAGE;
    }
    io.stderr.write(`ewp checkpoint: ${error.code}: ${error.message}; nothing written\n`);
    return error.code === 'UNKNOWN_CHECKPOINT' ? EXIT_USAGE : EXIT_SOME_FAILED;
  } finally {
    store.close();
  }
};
