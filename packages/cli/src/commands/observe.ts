/**
 * `ewp observe`: record one tool result as an observation for or against a claim, the evidence a
 * gate on that claim reads (`@ewp/tools` `recordObservation`). For the operator who ran the check
 * by hand, or a script that did: the observation's source is `tool:<--tool>`, the claim a proposition
 * of its own (`claim:<hash>` of its words), exactly as a binding's `observe` or a Claude Code `observe` rule records it.
 */
import { parseArgs } from 'node:util';
import { EwpError, parseJsonStrict } from '@ewp/core';
import type { EvidenceStore } from '@ewp/ledger';
import { type CliIO, type Command, EXIT_OK, EXIT_SOME_FAILED, EXIT_USAGE } from '../cli-io.js';
import { LEDGER_OPTIONS, ledgerSpec, openStore, StoreSpecError } from '../open-store.js';
import { readAtMost } from '../read-stream.js';
import { parseVerbArguments, usageError } from '../verb-arguments.js';

const HELP = `usage: ewp observe --claim TEXT --tool NAME (--supports | --refutes) [--result JSON|-] [--project P] [--json]
                   (--db ./ewp.sqlite | --pg <url> | --json-dir <dir>)

Record what a tool returned as an observation for (--supports) or against (--refutes) a claim, in
words ("server01 is healthy"): the claim is a proposition of its own (claim:<hash> of its words and
project) holding only observations, the result one of them, of source tool:NAME. Nobody asserts the
claim, so refutations alone leave it unaccepted. A gate on that claim (a binding's gate(tool, { claim }),
a Claude Code tool mapping rule with "claim") decides on it from then on. The same result of the same
tool again is one observation, not new evidence.

--result   what the tool returned: JSON, or text when it is not JSON; "-" reads it from stdin.
           Kept as the observation's text (at most 4 KiB). Default: none (null).
--project  the project scope of the claim and its observation (default: global).
--json     print the record as one JSON line.

The ledger is created when it does not exist (a first observation may start it).
Exit: 0 recorded (or already recorded), 1 refused by the ledger (the code says why), 2 unusable arguments or ledger.
`;

/** The most a `--result -` reads from stdin: far more than the 4 KiB kept. */
const RESULT_STDIN_LIMIT_BYTES = 16 * 1024 * 1024;

/** A result argument: its JSON value, or the text itself when it is not JSON. */
function resultValue(text: string): unknown {
  try {
    return parseJsonStrict(text.trim());
  } catch {
    return text;
  }
}

export const observeCommand: Command = async (args: string[], io: CliIO) => {
  const parsed = parseVerbArguments('observe', HELP, io, () =>
    parseArgs({
      args,
      allowPositionals: false,
      options: {
        ...LEDGER_OPTIONS,
        claim: { type: 'string' },
        tool: { type: 'string' },
        supports: { type: 'boolean' },
        refutes: { type: 'boolean' },
        result: { type: 'string' },
        project: { type: 'string' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }),
  );
  if (typeof parsed === 'number') return parsed;
  const { values } = parsed;
  if (values.claim === undefined) return usageError('observe', '--claim is required: the claim in words, e.g. --claim "server01 is healthy"', io);
  if (values.tool === undefined) return usageError('observe', '--tool is required: the tool that produced the result, e.g. --tool health_check', io);
  if (values.supports === values.refutes) {
    return usageError('observe', 'give exactly one of --supports (the result supports the claim) and --refutes (it refutes it)', io);
  }
  let result: unknown = null;
  if (values.result === '-') {
    const text = (await readAtMost(io.stdin, RESULT_STDIN_LIMIT_BYTES))?.toString('utf8');
    if (text === undefined) return usageError('observe', `--result -: stdin is larger than ${RESULT_STDIN_LIMIT_BYTES / (1024 * 1024)} MiB`, io);
    result = resultValue(text);
  } else if (values.result !== undefined) {
    result = resultValue(values.result);
  }

  let store: EvidenceStore;
  try {
    store = await openStore(ledgerSpec(values, io.cwd));
  } catch (error) {
    io.stderr.write(`ewp observe: ${StoreSpecError.isInstance(error) ? '' : 'unusable ledger: '}${(error as Error).message}\n`);
    return EXIT_USAGE;
  }
  try {
    const { recordObservation } = await import('@ewp/tools');
    const r = await recordObservation({
      store,
      claim: values.claim,
      tool: values.tool,
      result,
      supports: values.supports === true,
      ...(values.project === undefined ? {} : { project: values.project }),
    });
    if (values.json) {
      io.stdout.write(`${JSON.stringify(r)}\n`);
      return EXIT_OK;
    }
    const verb = r.polarity === 'supports' ? 'supports' : 'refutes';
    io.stdout.write(
      `${r.stored ? 'recorded' : 'already recorded'}: ${r.source} ${verb} ${JSON.stringify(r.claim)}\n` +
        `  claim ${r.propositionId}, snapshot ${r.viewId}\n  observation ${r.observation}\n`,
    );
    return EXIT_OK;
  } catch (error) {
    if (!EwpError.isInstance(error)) throw error;
    // A field recordObservation refuses (an empty claim, a tool name no source may have) is an argument of this verb.
    if (error.code === 'EWP_REFUSE_INVALID_ARGUMENT') return usageError('observe', `--${error.message}`, io); // the message starts with the field
    io.stderr.write(`ewp observe: ${error.code}: ${error.message}\n`);
    return EXIT_SOME_FAILED;
  } finally {
    await store.close().catch(() => undefined);
  }
};
