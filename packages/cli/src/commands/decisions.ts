/**
 * `ewp decisions list|show|verify|run`: the gate decisions recorded in a ledger (docs/spec/receipts.md §12.6). `show`
 * prints one decision with its confirmation, execution claim and outcome; `verify` re-derives its
 * receipts, rule and decision from the stored snapshots (and checks a signature against the
 * ledger's `key.state` keys, or `--keys`); these open the ledger read-only. `run` executes a recorded
 * decision's action, a command the operator gives, under the replay guard (`runDecision`).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { parseJsonStrict } from '@ewp/core';
import type { EvidenceStore } from '@ewp/ledger';
import { type CliIO, type Command, EXIT_OK, EXIT_SOME_FAILED, EXIT_USAGE } from '../cli-io.js';
import { LEDGER_OPTIONS, ledgerSpec, openStore, StoreSpecError } from '../open-store.js';
import { CommandFailedError, UsageError } from '../errors.js';
import { parseVerbArguments, usageError } from '../verb-arguments.js';

const HELP = `usage: ewp decisions list   (--db ./ewp.sqlite | --pg <url> | --json-dir <dir>) [--proposition P] [--since N] [--limit N] [--json]
       ewp decisions show   <decision-id> (--db ... ) 
       ewp decisions verify <decision-id> | --all (--db ... ) [--keys keys.json] [--json]
       ewp decisions run    <decision-id> (--db ... ) [--confirmed-by NAME] -- <command> [args...]

Gate decisions recorded in the ledger (docs/spec/receipts.md §12.6). list: oldest first, after chain index --since,
only those that consulted --proposition. show: the record (action, decision, rule, consulted warrant
receipts, risk policy, T, recovery gate) with its confirmation, execution and outcome, as JSON.
verify: re-derive every consulted receipt from the stored snapshots, the rule and the decision; a
signed record is checked against the keys the ledger's key.state entries register, or --keys
({"key-id": {"public_hex": "...", "state": "ACTIVE"}}). list, show and verify open the ledger read-only.
run: execute the decision's action, the command after --, under the replay guard: the decision is
checked again (it permits acting, and the evidence it rested on is unchanged; a REQUIRE_CONFIRMATION
decision needs --confirmed-by, recorded as its confirmation), its one execution (and its call's) is
claimed in the ledger before the command starts, and the command's end is recorded: succeeded (exit
0) or failed (its exit code or signal). A decision runs once: a second run is refused.

Exit: 0 listed / shown / verified / run and succeeded, 1 a decision does not verify, run refused
(nothing ran) or the command failed, 2 unusable ledger, arguments or id.
`;

function parse(args: string[]) {
  return parseArgs({
    args,
    allowPositionals: true,
    options: {
      ...LEDGER_OPTIONS,
      proposition: { type: 'string' },
      since: { type: 'string' },
      limit: { type: 'string' },
      keys: { type: 'string' },
      all: { type: 'boolean' },
      json: { type: 'boolean' },
      'confirmed-by': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

function integer(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new UsageError(`--${name} must be a non-negative integer, got ${JSON.stringify(value)}`);
  return Number(value);
}

/** Runs `argv` with the verb's streams; resolves on exit 0, rejects naming the exit code or signal otherwise. */
function runCommand(argv: readonly string[], io: CliIO): Promise<{ exit_code: 0 }> {
  return new Promise((done, fail) => {
    const child = spawn(argv[0] as string, argv.slice(1), { cwd: io.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.pipe(io.stdout, { end: false });
    child.stderr.pipe(io.stderr, { end: false });
    child.on('error', fail);
    child.on('close', (code, signal) => {
      if (code === 0) done({ exit_code: 0 });
      else fail(new CommandFailedError(signal === null ? `${argv[0]} exited with ${code}` : `${argv[0]} ended by ${signal}`));
    });
  });
}

/** `decisions run <id> -- <command...>`: the recorded decision's action under the replay guard. */
async function runRecorded(
  id: string,
  command: readonly string[],
  values: { 'confirmed-by'?: string | undefined },
  io: CliIO,
  store: EvidenceStore,
): Promise<number> {
  const tools = await import('@ewp/tools');
  const confirmedBy = values['confirmed-by'];
  // The command is the operation: its digest is claimed with the decision, so the claim says what ran.
  const run = await tools
    .runDecision(store, id, { command: [...command] }, () => runCommand(command, io), confirmedBy === undefined ? {} : { confirmation: { confirmedBy } })
    .catch((error: unknown) => {
      if (!tools.DecisionError.isInstance(error)) {
        // The command's own failure, recorded as the decision's outcome.
        io.stderr.write(`ewp decisions: ${id} ran and failed (recorded): ${(error as Error).message}\n`);
        return undefined;
      }
      // An id the ledger does not hold is a usage error (exit 2); the guard's refusals ran nothing (exit 1).
      if (error.code === 'EWP_REFUSE_DECISION_UNKNOWN') throw error;
      io.stderr.write(`ewp decisions: ${error.code}: ${error.message}; nothing ran\n`);
      return null;
    });
  if (run === null || run === undefined) return EXIT_SOME_FAILED;
  if (run.status === 'refused') {
    io.stderr.write(`ewp decisions: EWP_REFUSE_DECISION_NOT_EXECUTABLE: ${run.reason}; nothing ran\n`);
    return EXIT_SOME_FAILED;
  }
  io.stderr.write(`ewp decisions: ${id} ran and succeeded (recorded)\n`);
  return EXIT_OK;
}

export const decisionsCommand: Command = async (args: string[], io: CliIO) => {
  // Everything after `--` is the command `run` executes, never options of this verb.
  const dash = args.indexOf('--');
  const command = dash === -1 ? undefined : args.slice(dash + 1);
  const parsed = parseVerbArguments('decisions', HELP, io, () => parse(dash === -1 ? args : args.slice(0, dash)));
  if (typeof parsed === 'number') return parsed;
  const { values, positionals } = parsed;
  const [sub, id, ...rest] = positionals;
  if (sub !== 'list' && sub !== 'show' && sub !== 'verify' && sub !== 'run') return usageError('decisions', 'expected list, show, verify or run', io);
  if (sub === 'run' && (id === undefined || command === undefined || command.length === 0)) {
    return usageError('decisions', 'run needs a decision id and the command after --', io);
  }
  if (sub !== 'run' && command !== undefined) return usageError('decisions', `${sub} takes no command`, io);
  if (sub !== 'run' && values['confirmed-by'] !== undefined) return usageError('decisions', '--confirmed-by is for run', io);
  if (values['confirmed-by'] === '') return usageError('decisions', '--confirmed-by names who confirmed', io);
  if (rest.length > 0 || (sub === 'list' && id !== undefined)) return usageError('decisions', 'too many arguments', io);
  if (sub === 'show' && id === undefined) return usageError('decisions', 'show needs a decision id', io);
  if (sub === 'verify' && (id === undefined) === (values.all !== true)) return usageError('decisions', 'verify needs a decision id or --all', io);
  let since: number | undefined;
  let limit: number | undefined;
  try {
    since = integer(values.since, 'since');
    limit = integer(values.limit, 'limit');
  } catch (error) {
    return usageError('decisions', (error as Error).message, io);
  }
  let store: EvidenceStore;
  try {
    store = await openStore({ ...ledgerSpec(values, io.cwd), readOnly: sub !== 'run' });
  } catch (error) {
    io.stderr.write(`ewp decisions: ${StoreSpecError.isInstance(error) ? '' : 'unusable ledger: '}${(error as Error).message}\n`);
    return EXIT_USAGE;
  }
  try {
    if (sub === 'run') return await runRecorded(id as string, command as string[], values, io, store);
    const tools = await import('@ewp/tools');
    if (sub === 'list') {
      const list = await tools.listDecisions(store, {
        ...(values.proposition === undefined ? {} : { proposition: values.proposition }),
        ...(since === undefined ? {} : { afterIndex: since }),
        ...(limit === undefined ? {} : { limit }),
      });
      if (values.json) {
        for (const d of list) io.stdout.write(`${JSON.stringify(tools.decisionSummary(d))}\n`);
      } else {
        io.stdout.write('index\tdecision_id\taction\tdecision\tmay_act\trule\tpropositions\tevaluated_at\n');
        for (const d of list) {
          const s = tools.decisionSummary(d);
          io.stdout.write(
            `${s.chain_index}\t${s.decision_id}\t${s.action_id}\t${s.decision}\t${s.may_act}\t${s.rule}\t${s.propositions.join(',')}\t${s.evaluated_at}\n`,
          );
        }
      }
      return EXIT_OK;
    }
    if (sub === 'show') {
      io.stdout.write(`${JSON.stringify(await tools.decisionHistory(store, id as string), null, 2)}\n`);
      return EXIT_OK;
    }
    let verifier: Parameters<typeof tools.verifyDecision>[2] = {};
    if (values.keys !== undefined) {
      const { Ed25519Verifier } = await import('@ewp/receipts');
      // Strict: a key id given twice would register one key where the file shows another.
      const registry = parseJsonStrict(readFileSync(resolve(io.cwd, values.keys))) as ConstructorParameters<typeof Ed25519Verifier>[0];
      verifier = { verifier: new Ed25519Verifier(registry) };
    }
    const ids = id !== undefined ? [id] : (await tools.listDecisions(store, { limit: 100_000 })).map((d) => d.decision_id);
    let failed = 0;
    for (const one of ids) {
      const check = await tools.verifyDecision(store, one, verifier);
      if (!check.ok) failed++;
      io.stdout.write(values.json || id !== undefined ? `${JSON.stringify({ decision_id: one, ...check })}\n` : `${one}\t${check.status}\t${check.reason}\n`);
    }
    if (id === undefined && !values.json) io.stdout.write(`${ids.length - failed} verified, ${failed} failed\n`);
    return failed === 0 ? EXIT_OK : EXIT_SOME_FAILED;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    io.stderr.write(`ewp decisions: ${typeof code === 'string' ? `${code}: ` : ''}${(error as Error).message}\n`);
    return EXIT_USAGE;
  } finally {
    await store.close().catch(() => undefined);
  }
};
