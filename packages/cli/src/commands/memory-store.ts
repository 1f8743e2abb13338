/** `ewp store`: store a memory with its epistemic class, optionally as support of others. */
import { parseArgs } from 'node:util';
import type { EpistemicClass } from '@ewp/memory';
import { type CliIO, type Command, EXIT_OK } from '../cli-io.js';
import { parseVerbArguments, usageError } from '../verb-arguments.js';
import { listOption, MEMORY_LEDGER_HELP, MEMORY_VERB_OPTIONS, printJson, withMemoryLedger } from './memory-ledger-open.js';

const HELP = `usage: ewp store <text> --class {observation|evidence|inference|hypothesis} [--supports h1,h2]
                 [--project P] [--source S] [--derived-from h1,h2] [--observed-at T] [--json] <ledger>

Store a memory as EWP records (an observation as exogenous evidence, an inference or hypothesis as an
endogenous assertion) with a STORE event in the same transaction. --supports links it as support of
each memory named (only observations and evidence may support; supports stay in one project): every
link is checked first, and the memory and all its links are written in that one transaction, or
nothing is. A support from the target's own source or lineage (or that of what it was derived from)
is linked but adds no source and no confidence.
Prints the memory's hash, class and confidence.

${MEMORY_LEDGER_HELP}

Exit: 0 stored (or already stored), 1 refused (the code says why), 2 unusable arguments or ledger.
`;

export const memoryStoreCommand: Command = async (args: string[], io: CliIO) => {
  const parsed = parseVerbArguments('store', HELP, io, () =>
    parseArgs({
      args,
      allowPositionals: true,
      options: {
        ...MEMORY_VERB_OPTIONS,
        class: { type: 'string' },
        supports: { type: 'string' },
        project: { type: 'string' },
        source: { type: 'string' },
        'derived-from': { type: 'string' },
        'observed-at': { type: 'string' },
      },
    }),
  );
  if (typeof parsed === 'number') return parsed;
  const { values, positionals } = parsed;
  if (positionals.length !== 1) return usageError('store', 'expected the memory text as one argument', io);
  if (values.class === undefined) return usageError('store', '--class is required (observation, evidence, inference or hypothesis)', io);
  return withMemoryLedger('store', values, io, false, async (memory) => {
    const r = await memory.store({
      text: positionals[0] as string,
      class: values.class as EpistemicClass,
      project: values.project,
      source: values.source,
      supports: listOption(values.supports),
      derived_from: listOption(values['derived-from']),
      observed_at: values['observed-at'],
    });
    if (values.json) {
      printJson(io, r);
      return EXIT_OK;
    }
    io.stdout.write(`${r.status} ${r.hash} class=${r.class} confidence=${r.confidence} warrant=${r.warrant.acceptance}\n`);
    for (const l of r.links) {
      io.stdout.write(
        `  supports ${l.target}: ${l.echo ? `echo of ${l.echo_of} (no new source)` : l.self_support ? 'its own source or lineage (no new source)' : 'independent'}; its confidence ${l.target_confidence}, distinct sources ${l.target_distinct_sources}\n`,
      );
    }
    return EXIT_OK;
  });
};
