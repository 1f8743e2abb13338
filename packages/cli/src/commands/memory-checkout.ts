/** `ewp memory checkout|readback`: the persona file (MEMORY.md), generated from the ledger, and its read-back. */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { decodeUtf8, EwpError } from '@ewp/core';
import { type CliIO, type Command, EXIT_OK, EXIT_USAGE } from '../cli-io.js';
import { parseVerbArguments, usageError } from '../verb-arguments.js';
import { MEMORY_LEDGER_HELP, MEMORY_VERB_OPTIONS, printJson, withMemoryLedger } from './memory-ledger-open.js';

const HELP = `usage: ewp memory checkout [--project P] [--at T] [--out MEMORY.md] <ledger>
       ewp memory readback <MEMORY.md> [--project P] [--source S] [--json] <ledger>

checkout writes the persona file: the memories promoted into the agent's context and the confirmed
ones, disputed ones stated as disputed and hypotheses as hypotheses. It is a checkout, never the
system of record. readback stores every changed or new line as a new inference of the agent
(an endogenous assertion, confidence 0), never as verification; nothing is deleted.

${MEMORY_LEDGER_HELP}

Exit: 0, 1 refused, 2 unusable arguments, file or ledger.
`;

export const memoryCommand: Command = async (args: string[], io: CliIO) => {
  const parsed = parseVerbArguments('memory', HELP, io, () =>
    parseArgs({
      args,
      allowPositionals: true,
      options: { ...MEMORY_VERB_OPTIONS, project: { type: 'string' }, at: { type: 'string' }, out: { type: 'string' }, source: { type: 'string' } },
    }),
  );
  if (typeof parsed === 'number') return parsed;
  const { values, positionals } = parsed;
  const [sub, file, ...extra] = positionals;
  if (sub === 'checkout' && file === undefined) {
    return withMemoryLedger('memory', values, io, true, async (memory) => {
      const text = await memory.checkout({ project: values.project, ...(values.at === undefined ? {} : { at: values.at }) });
      if (values.out === undefined) io.stdout.write(text);
      else {
        try {
          writeFileSync(resolve(io.cwd, values.out), text);
        } catch (error) {
          // A directory, a missing parent or no permission: the reason in one line, not a crash.
          io.stderr.write(`ewp memory: cannot write --out ${values.out}: ${(error as Error).message}\n`);
          return EXIT_USAGE;
        }
      }
      return EXIT_OK;
    });
  }
  if (sub === 'readback' && file !== undefined && extra.length === 0) {
    let text: string;
    try {
      // The one byte rule (core's decodeUtf8): bytes that are not UTF-8 are refused, never stored as U+FFFD.
      text = decodeUtf8(readFileSync(resolve(io.cwd, file)));
    } catch (error) {
      const code = EwpError.isInstance(error) ? `${error.code}: ` : '';
      io.stderr.write(`ewp memory: cannot read ${file}: ${code}${(error as Error).message}\n`);
      return EXIT_USAGE;
    }
    return withMemoryLedger('memory', values, io, false, async (memory) => {
      const r = await memory.readBack(text, { project: values.project, ...(values.source === undefined ? {} : { source: values.source }) });
      if (values.json) printJson(io, r);
      else {
        io.stdout.write(`${r.unchanged} line(s) unchanged, ${r.asserted.length} new assertion(s) (class inference, never verification)\n`);
        for (const a of r.asserted) io.stdout.write(`  ${a.status} ${a.hash} confidence ${a.confidence}  ${a.text}\n`);
      }
      return EXIT_OK;
    });
  }
  return usageError('memory', 'expected "checkout" or "readback <file>"', io);
};
