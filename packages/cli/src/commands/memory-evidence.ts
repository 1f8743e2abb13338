/** `ewp evidence show|link|refute|audit|gate-stats|reclass`: a memory's evidence, links, audit and gate. */
import { parseArgs } from 'node:util';
import type { EpistemicClass } from '@ewp/memory';
import { type CliIO, type Command, EXIT_OK, EXIT_SOME_FAILED } from '../cli-io.js';
import { parseVerbArguments, usageError } from '../verb-arguments.js';
import { MEMORY_LEDGER_HELP, MEMORY_VERB_OPTIONS, printJson, withMemoryLedger } from './memory-ledger-open.js';

const HELP = `usage: ewp evidence show <hash> [--at T]
       ewp evidence link <support> <target>        an observation as support of a memory (echo-checked)
       ewp evidence refute <refuter> <target>      an observation as refutation of a memory
       ewp evidence reclass <hash> <class> [--reason text]
       ewp evidence audit [hash]                   verify the chain; list the memory events
       ewp evidence gate-stats [--from T] [--to T] promotions allowed and blocked, by reason
   with [--json] <ledger>

show prints class, confidence and the counts behind it (supports, refutations, distinct sources, first
and last seen) beside the EWP warrant, and the memory's events.

${MEMORY_LEDGER_HELP}

Exit: 0, 1 refused (or the audit failed), 2 unusable arguments or ledger.
`;

const ARITY: Record<string, [number, number]> = { show: [1, 1], link: [2, 2], refute: [2, 2], reclass: [2, 2], audit: [0, 1], 'gate-stats': [0, 0] };

export const memoryEvidenceCommand: Command = async (args: string[], io: CliIO) => {
  const parsed = parseVerbArguments('evidence', HELP, io, () =>
    parseArgs({
      args,
      allowPositionals: true,
      options: { ...MEMORY_VERB_OPTIONS, at: { type: 'string' }, reason: { type: 'string' }, from: { type: 'string' }, to: { type: 'string' } },
    }),
  );
  if (typeof parsed === 'number') return parsed;
  const { values, positionals } = parsed;
  const [sub, ...rest] = positionals;
  const arity = sub === undefined ? undefined : ARITY[sub];
  if (sub === undefined || arity === undefined) return usageError('evidence', `expected a subcommand: ${Object.keys(ARITY).join(', ')}`, io);
  if (rest.length < arity[0] || rest.length > arity[1]) return usageError('evidence', `${sub}: wrong number of arguments`, io);
  const readOnly = sub === 'show' || sub === 'audit' || sub === 'gate-stats';
  return withMemoryLedger('evidence', values, io, readOnly, async (memory) => {
    const [a, b] = rest as [string, string];
    if (sub === 'show') {
      const s = await memory.show(a, values.at);
      if (values.json) printJson(io, s);
      else {
        io.stdout.write(
          `${s.hash}  ${s.class}  confidence ${s.confidence}  (warrant: ${s.warrant.acceptance}, conflict ${s.warrant.conflict}; confidence and warrant never feed each other)\n` +
            `  ${s.text}\n` +
            `  supports ${s.support_count}, refutations ${s.refute_count}, distinct sources ${s.distinct_sources}, echoes ${s.echo_count}, self-supports ${s.self_support_count}\n` +
            `  first seen ${s.first_seen ?? '-'}, last support ${s.last_support ?? '-'}, last refutation ${s.last_refute ?? '-'}\n` +
            `  salience: recalled ${s.salience.recall_count}, energy ${s.salience.energy}, importance ${s.salience.importance}${s.promoted ? ', promoted (by the gate, in the chain)' : ''}\n`,
        );
        for (const e of s.events) io.stdout.write(`  #${e.chain_index} ${e.kind} ${e.committed_at} ${JSON.stringify(e.body)}\n`);
      }
      return EXIT_OK;
    }
    if (sub === 'link' || sub === 'refute') {
      const r = sub === 'link' ? await memory.link(a, b) : await memory.refute(a, b);
      if (values.json) printJson(io, r);
      else
        io.stdout.write(
          `${r.status} ${r.support} ${r.polarity} ${r.target}: ${r.echo ? `echo of ${r.echo_of} (adds no source)` : r.self_support ? 'from its own source or lineage (adds no source)' : 'independent'}; target confidence ${r.target_confidence}, distinct sources ${r.target_distinct_sources}\n`,
        );
      return EXIT_OK;
    }
    if (sub === 'reclass') {
      const r = await memory.reclass(a, b as EpistemicClass, values.reason);
      if (values.json) printJson(io, r);
      else io.stdout.write(`${r.status} ${r.hash}: ${r.from} -> ${r.to}\n`);
      return EXIT_OK;
    }
    if (sub === 'audit') {
      const r = await memory.audit(a);
      if (values.json) printJson(io, r);
      else {
        io.stdout.write(r.chain.ok ? `chain OK, length ${r.chain.length}\n` : `chain FAIL at index ${r.chain.firstBadIndex}: ${r.chain.reason}\n`);
        for (const e of r.events) io.stdout.write(`#${e.chain_index} ${e.kind} ${e.id}\n`);
      }
      return r.chain.ok ? EXIT_OK : EXIT_SOME_FAILED;
    }
    const stats = await memory.gateStats({
      ...(values.from === undefined ? {} : { from: values.from }),
      ...(values.to === undefined ? {} : { to: values.to }),
    });
    if (values.json) printJson(io, stats);
    else {
      io.stdout.write(`promotions allowed ${stats.allowed}, blocked ${stats.blocked}\n`);
      for (const [reason, n] of Object.entries(stats.by_reason)) io.stdout.write(`  ${reason}: ${n}\n`);
    }
    return EXIT_OK;
  });
};
