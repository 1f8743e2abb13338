/**
 * `ewp audit verify`: check a ledger's hash-chained event log from its genesis entry, and every
 * stored row against the event that committed it. Prints the length, head hash and OK, or the first
 * bad index and why. Never repairs anything.
 */
import { parseArgs } from 'node:util';
import { type ChainAnchor, parseChainHead } from '@ewp/canonical';
import { type CliIO, type Command, EXIT_OK, EXIT_SOME_FAILED, EXIT_USAGE } from '../cli-io.js';
import { parseVerbArguments, usageError } from '../verb-arguments.js';
import { LEDGER_OPTIONS, ledgerSpec, openStore, StoreSpecError } from '../open-store.js';

const HELP = `usage: ewp audit verify (--db ./ewp.sqlite | --pg <url> | --json-dir <dir>) [--json]
                        [--expect-head LENGTH:HASH]

Verify the ledger's event log (docs/spec/receipts.md §11) and every stored row against it. The ledger is
opened read-only.

  --expect-head LENGTH:HASH   a head printed by an earlier audit and kept elsewhere: the log must reach
                              it (at least LENGTH entries, entry LENGTH-1 with that hash). Catches a cut
                              tail or a rewritten history whose stored anchor was rewritten too.

Exit: 0 the log and rows verify, 1 the first bad index is reported, 2 unusable ledger or arguments.
`;

export const auditCommand: Command = async (args: string[], io: CliIO) => {
  const parsed = parseVerbArguments('audit', HELP, io, () => parse(args));
  if (typeof parsed === 'number') return parsed;
  const { values, positionals } = parsed;
  if (positionals[0] !== 'verify' || positionals.length !== 1) {
    return usageError('audit', 'expected the subcommand "verify"', io);
  }
  let expectHead: ChainAnchor | undefined;
  if (values['expect-head'] !== undefined) {
    expectHead = parseChainHead(values['expect-head']);
    if (expectHead === undefined) {
      return usageError('audit', `--expect-head: expected LENGTH:HASH (64 lowercase hex), got ${JSON.stringify(values['expect-head'])}`, io);
    }
  }
  let store: Awaited<ReturnType<typeof openStore>>;
  try {
    store = await openStore({
      ...ledgerSpec(values, io.cwd),
      readOnly: true,
    });
  } catch (error) {
    io.stderr.write(`ewp audit: ${StoreSpecError.isInstance(error) ? '' : 'unusable ledger: '}${(error as Error).message}\n`);
    return EXIT_USAGE;
  }
  let result: Awaited<ReturnType<typeof store.verifyChain>>;
  try {
    result = await store.verifyChain(expectHead === undefined ? {} : { expectHead });
  } catch (error) {
    io.stderr.write(`ewp audit: unusable ledger: ${(error as Error).message}\n`);
    await store.close().catch(() => undefined);
    return EXIT_USAGE;
  }
  await store.close();
  if (values.json) {
    io.stdout.write(`${JSON.stringify(result)}\n`);
    return result.ok ? EXIT_OK : EXIT_SOME_FAILED;
  }
  if (result.ok) {
    io.stdout.write(`chain length ${result.length}\nhead ${result.head}\nOK\n`);
    return EXIT_OK;
  }
  io.stdout.write(
    `chain verified up to index ${result.firstBadIndex}\nFAIL at index ${result.firstBadIndex}: ${result.reason}${result.detail ? ` (${result.detail})` : ''}\n`,
  );
  return EXIT_SOME_FAILED;
};

function parse(args: string[]) {
  return parseArgs({
    args,
    allowPositionals: true,
    options: {
      ...LEDGER_OPTIONS,
      json: { type: 'boolean' },
      'expect-head': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}
