/** `ewp recall`: recall memories with class and confidence on every row. */
import { parseArgs } from 'node:util';
import type { EpistemicClass } from '@ewp/memory';
import { type CliIO, type Command, EXIT_OK } from '../cli-io.js';
import { parseVerbArguments, usageError } from '../verb-arguments.js';
import { listOption, MEMORY_LEDGER_HELP, MEMORY_VERB_OPTIONS, printJson, withMemoryLedger } from './memory-ledger-open.js';

const HELP = `usage: ewp recall [query] [--class c1,c2] [--confidence-min N] [--project P] [--limit N] [--at T]
                  [--no-touch] [--json] <ledger>

Recall memories by text (or the most salient ones), each with its class and confidence (0-100, from
independent observations at T, never from recall). Recall raises salience (unless --no-touch) and may
put a memory to the promotion gate; it never changes evidence.

${MEMORY_LEDGER_HELP}

Exit: 0, 1 refused arguments (the code says why), 2 unusable arguments or ledger.
`;

export const memoryRecallCommand: Command = async (args: string[], io: CliIO) => {
  const parsed = parseVerbArguments('recall', HELP, io, () =>
    parseArgs({
      args,
      allowPositionals: true,
      options: {
        ...MEMORY_VERB_OPTIONS,
        class: { type: 'string' },
        'confidence-min': { type: 'string' },
        project: { type: 'string' },
        limit: { type: 'string' },
        at: { type: 'string' },
        'no-touch': { type: 'boolean' },
      },
    }),
  );
  if (typeof parsed === 'number') return parsed;
  const { values, positionals } = parsed;
  if (positionals.length > 1) return usageError('recall', 'give the query as one argument (quote it)', io);
  const number = (name: string, v: string | undefined) => {
    if (v === undefined) return undefined;
    const n = Number(v);
    return v.trim() === '' || !Number.isFinite(n) ? name : n;
  };
  const min = number('--confidence-min', values['confidence-min']);
  const limit = number('--limit', values.limit);
  if (typeof min === 'string' || typeof limit === 'string') return usageError('recall', `${typeof min === 'string' ? min : limit}: not a number`, io);
  return withMemoryLedger('recall', values, io, false, async (memory) => {
    const rows = await memory.recall({
      query: positionals[0],
      class: listOption(values.class) as EpistemicClass[] | undefined,
      confidence_min: min,
      project: values.project,
      limit,
      at: values.at,
      touch: !values['no-touch'],
    });
    if (values.json) {
      printJson(io, rows);
      return EXIT_OK;
    }
    for (const r of rows) io.stdout.write(`${r.hash}  ${r.class.padEnd(11)} confidence ${String(r.confidence).padStart(3)}  ${r.text}\n`);
    if (rows.length === 0) io.stdout.write('(nothing recalled)\n');
    return EXIT_OK;
  });
};
