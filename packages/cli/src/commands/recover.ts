/**
 * `ewp recover plan|reevaluate|retract`: recovery after evidence changed (docs/spec/receipts.md §12.4–§12.6). `plan`
 * re-checks the recorded decisions against the newest snapshots and the recorded retractions and
 * says which propositions to re-evaluate and which recorded actions are held until then;
 * `reevaluate` records a re-evaluation of a proposition on its newest snapshot; `retract` records an
 * explicit retraction of some of its records (REFUTED in every later re-verification).
 */
import { parseArgs } from 'node:util';
import type { EvidenceStore } from '@ewp/ledger';
import { type CliIO, type Command, EXIT_OK, EXIT_SOME_FAILED, EXIT_USAGE } from '../cli-io.js';
import { LEDGER_OPTIONS, ledgerSpec, openStore, StoreSpecError } from '../open-store.js';
import { parseVerbArguments, usageError } from '../verb-arguments.js';

const HELP = `usage: ewp recover plan       (--db ./ewp.sqlite | --pg <url> | --json-dir <dir>) [--since N|ISO-time] [--record] [--json]
       ewp recover reevaluate <proposition-id> (--db ...) [--json]
       ewp recover retract    <proposition-id> <kind:id>... (--db ...) [--note TEXT]

plan: re-check every recorded decision (after chain index N, or committed at or after an ISO 8601 time)
against the newest snapshots and the recorded retractions (docs/spec/receipts.md §12.4). Prints the changed
propositions (evidence_changed, evidence_missing, evidence_refuted), every proposition derived from
them, and the recorded actions held until their own path is re-evaluated. --record appends the plan
to the ledger (a recovery.plan entry); otherwise the ledger is opened read-only.
reevaluate: evaluate the proposition's newest snapshot now and record it (warrant.evaluated); it
lifts the proposition's hold unless the snapshot still holds a retracted record.
retract: record that records of the proposition (check:C-1, evidence:E-3, assertion:A-1) are retracted.

A decision whose changed propositions have all been re-evaluated since is listed as re-evaluated, not
held: a later use decides the action again on the newest evidence.
retract refuses a proposition or record that no stored snapshot holds (nothing is recorded).

Exit: plan 0 nothing held, 1 some recorded action is held until a re-evaluation; reevaluate 0 ALLOW, 1 still blocked;
2 unusable ledger or arguments.
`;

function parse(args: string[]) {
  return parseArgs({
    args,
    allowPositionals: true,
    options: {
      ...LEDGER_OPTIONS,
      since: { type: 'string' },
      record: { type: 'boolean' },
      note: { type: 'string' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

export const recoverCommand: Command = async (args: string[], io: CliIO) => {
  const parsed = parseVerbArguments('recover', HELP, io, () => parse(args));
  if (typeof parsed === 'number') return parsed;
  const { values, positionals } = parsed;
  const [sub, pid, ...records] = positionals;
  if (sub === 'plan' && pid !== undefined) return usageError('recover', 'plan takes no positional argument', io);
  if (sub === 'reevaluate' && (pid === undefined || records.length > 0)) return usageError('recover', 'reevaluate needs one proposition id', io);
  if (sub === 'retract' && (pid === undefined || records.length === 0))
    return usageError('recover', 'retract needs a proposition id and at least one record (check:C-1)', io);
  if (sub !== 'plan' && sub !== 'reevaluate' && sub !== 'retract') return usageError('recover', 'expected plan, reevaluate or retract', io);
  const since = values.since === undefined ? undefined : /^\d+$/.test(values.since) ? Number(values.since) : values.since;
  if (typeof since === 'string' && Number.isNaN(Date.parse(since))) return usageError('recover', '--since must be a chain index or an ISO 8601 time', io);
  let store: EvidenceStore;
  try {
    store = await openStore({ ...ledgerSpec(values, io.cwd), readOnly: sub === 'plan' && values.record !== true });
  } catch (error) {
    io.stderr.write(`ewp recover: ${StoreSpecError.isInstance(error) ? '' : 'unusable ledger: '}${(error as Error).message}\n`);
    return EXIT_USAGE;
  }
  try {
    const tools = await import('@ewp/tools');
    if (sub === 'plan') {
      const plan = await tools.planLedgerRecovery(store, { ...(since === undefined ? {} : { since }), record: values.record === true });
      if (values.json) io.stdout.write(`${JSON.stringify(plan)}\n`);
      else {
        io.stdout.write(`decisions examined ${plan.decisions}, clear ${plan.clear}, held ${plan.held.length}, re-evaluated ${plan.reevaluated.length}\n`);
        for (const [p, why] of Object.entries(plan.changed)) io.stdout.write(`changed\t${p}\t${why}\n`);
        for (const p of plan.reevaluate) io.stdout.write(`reevaluate\t${p}\n`);
        for (const h of plan.held) io.stdout.write(`held\t${h.decision_id}\t${h.action_id}\t${h.gate}\tuntil ${h.requirements.join(', ')} re-evaluated\n`);
        for (const r of plan.reevaluated) io.stdout.write(`re-evaluated\t${r.decision_id}\t${r.action_id}\ta later use decides the action again\n`);
        if (plan.plan_id !== null) io.stdout.write(`recorded as ${plan.plan_id}\n`);
      }
      return plan.held.length === 0 ? EXIT_OK : EXIT_SOME_FAILED;
    }
    if (sub === 'reevaluate') {
      const r = await tools.reevaluate(store, pid as string);
      io.stdout.write(values.json ? `${JSON.stringify(r)}\n` : `${r.proposition_id}\t${r.view_id}\t${r.action}\t${r.id}\n`);
      return r.action === 'ALLOW' ? EXIT_OK : EXIT_SOME_FAILED;
    }
    const id = await tools.recordRetraction(store, { proposition_id: pid as string, records, ...(values.note === undefined ? {} : { note: values.note }) });
    io.stdout.write(`${id}\n`);
    return EXIT_OK;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    io.stderr.write(`ewp recover: ${typeof code === 'string' ? `${code}: ` : ''}${(error as Error).message}\n`);
    return EXIT_USAGE;
  } finally {
    await store.close().catch(() => undefined);
  }
};
