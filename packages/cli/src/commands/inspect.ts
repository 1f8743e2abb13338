/**
 * `ewp inspect`: the read-only inspector page (@ewp/inspect) over a ledger, on loopback, until
 * SIGINT/SIGTERM. The ledger is opened read-only: the page can only look.
 */
import { spawn } from 'node:child_process';
import { parseArgs } from 'node:util';
import type { StoreOpener } from '@ewp/inspect';
import type { EvidenceStore } from '@ewp/ledger';
import { type MemoryConfigInput, MemoryError, saliencePathFor } from '@ewp/memory';
import { type CliIO, type Command, EXIT_OK, EXIT_USAGE } from '../cli-io.js';
import { LEDGER_OPTIONS, ledgerSpec, type OpenStoreSpec, openStore, splitPgUrl } from '../open-store.js';
import { importOptional, PackageNotInstalledError } from '../optional-package.js';
import { parseVerbArguments, usageError } from '../verb-arguments.js';
import { EPISTEMIC_HELP, EPISTEMIC_OPTIONS, epistemicSettings } from '../epistemic-options.js';
import { untilSignal } from '../until-signal.js';

const HELP = `usage: ewp inspect (--db FILE | --pg URL | --json-dir DIR) [--port N] [--host HOST]
                   [--allowed-host NAME ...] [--salience FILE] [--open]

Serve a local, read-only web page that shows why the evidence warrants what it does: the five
axes with their reasons, the records and their origins, time travel over T, the lineage graph,
the action gate for every risk, the audit chain, the gate decisions recorded on each proposition
(and whether a later use is held until re-evaluation), and for a memory of the evidence layer its
class, confidence, salience and promotion gate history beside the warrant.

  --db FILE            SQLite ledger
  --pg URL             PostgreSQL ledger (postgres://user@host:port/db?schema=name)
  --json-dir DIR       JSON-file ledger
  --port N             port (default 8766; 0 picks a free one)
  --host HOST          bind address (default 127.0.0.1: loopback only)
  --allowed-host NAME  repeatable: a host name the browser may use besides loopback
                       (required when HOST is not loopback; every request is checked)
  --salience FILE      the memories' salience side file (recall counts, energy, importance),
                       read-only; default <db>.salience.jsonl or <dir>.salience.jsonl, as the
                       memory verbs (ewp store, recall, evidence) keep it; none for --pg
  --open               open the page in the default browser
${EPISTEMIC_HELP}

The ledger is opened read-only and must exist. The audit chain is verified in a worker thread,
once per change of the ledger, so the page keeps answering meanwhile. The HTTP limits are those of
ewp serve --http (docs/inspect.md). Stop with Ctrl-C.
`;

function parse(args: string[]) {
  return parseArgs({
    args,
    allowPositionals: false,
    options: {
      ...LEDGER_OPTIONS,
      port: { type: 'string' },
      host: { type: 'string' },
      'allowed-host': { type: 'string', multiple: true },
      salience: { type: 'string' },
      ...EPISTEMIC_OPTIONS,
      open: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

/** Open `url` in the desktop's browser; a failure only leaves the URL printed. */
function openBrowser(url: string, io: CliIO): void {
  const [command, args] =
    process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['cmd', ['/c', 'start', '', url]] : ['xdg-open', [url]];
  const child = spawn(command as string, args as string[], { detached: true, stdio: 'ignore' });
  child.on('error', () => io.stderr.write(`ewp inspect: could not open a browser; visit ${url}\n`));
  child.unref();
}

/** A built module's `file:` URL, or `undefined` where none can be resolved (running from sources). */
function builtModule(specifier: string): string | undefined {
  try {
    const url = import.meta.resolve(specifier);
    return url.startsWith('file:') && url.endsWith('.js') ? url : undefined;
  } catch {
    return undefined;
  }
}

/**
 * How a worker thread opens its own read-only handle on the ledger `spec` names, to verify the
 * audit chain off the event loop; `undefined` when the store modules are not built (the chain is
 * then verified on the main thread).
 */
function chainOpenerOf(spec: OpenStoreSpec): StoreOpener | undefined {
  if (spec.db !== undefined) {
    const module = builtModule('@ewp/sqlite');
    return module === undefined ? undefined : { module, export: 'openSqliteStore', args: [spec.db, { readOnly: true }] };
  }
  if (spec.pg !== undefined) {
    const module = builtModule('@ewp/postgres');
    const { connectionString, schema } = splitPgUrl(spec.pg);
    return module === undefined
      ? undefined
      : { module, export: 'openPostgresStore', args: [{ connectionString, schema: schema ?? spec.pgSchema ?? 'ewp', readOnly: true, maxConnections: 1 }] };
  }
  const module = builtModule('@ewp/ledger');
  return module === undefined ? undefined : { module, export: 'JsonFileEvidenceStore', construct: true, args: [spec.jsonDir, { readOnly: true }] };
}

export const inspectCommand: Command = async (args, io) => {
  const parsed = parseVerbArguments('inspect', HELP, io, () => parse(args));
  if (typeof parsed === 'number') return parsed;
  const { values } = parsed;
  const port = values.port === undefined ? undefined : Number(values.port);
  if (port !== undefined && (!/^\d{1,5}$/.test(values.port as string) || (port as number) > 65535)) {
    return usageError('inspect', `--port must be an integer from 0 to 65535, got ${JSON.stringify(values.port)}`, io);
  }
  // The settings the ledger was written under: confidence, confirmed and disputed are read with them.
  let config: MemoryConfigInput;
  try {
    config = epistemicSettings(values, io.cwd);
  } catch (error) {
    return usageError('inspect', `${MemoryError.isInstance(error) ? `${error.code}: ` : ''}${(error as Error).message}`, io);
  }
  // An optional peer of @ewp/cli: loaded before the ledger is opened, so a missing one is said first.
  let serveInspector: typeof import('@ewp/inspect').serveInspector;
  try {
    ({ serveInspector } = await importOptional('@ewp/inspect', 'this command', () => import('@ewp/inspect')));
  } catch (error) {
    if (!PackageNotInstalledError.isInstance(error)) throw error;
    io.stderr.write(`ewp inspect: ${error.message}\n`);
    return EXIT_USAGE;
  }
  let store: EvidenceStore;
  const spec = ledgerSpec(values, io.cwd);
  try {
    store = await openStore({ ...spec, readOnly: true });
  } catch (error) {
    io.stderr.write(`ewp inspect: ${(error as Error).message}\n`);
    return EXIT_USAGE;
  }
  try {
    const chainOpener = chainOpenerOf(spec);
    const label = values.db ?? values['json-dir'] ?? 'PostgreSQL';
    // The side file the memory verbs and `ewp serve` keep (the one rule of @ewp/memory); only read here.
    const salience = saliencePathFor({
      ...(values.db === undefined ? {} : { db: values.db }),
      ...(values['json-dir'] === undefined ? {} : { jsonDir: values['json-dir'] }),
      ...(values.salience === undefined ? {} : { salience: values.salience }),
      cwd: io.cwd,
    });
    const inspector = await serveInspector({
      store,
      label: `${label} (read-only)`,
      ...(port === undefined ? {} : { port }),
      ...(values.host === undefined ? {} : { host: values.host }),
      ...(values['allowed-host'] === undefined ? {} : { allowedHosts: values['allowed-host'] }),
      ...(chainOpener === undefined ? {} : { chainOpener }),
      memory: { config, ...(salience === undefined ? {} : { salience }) },
    });
    io.stderr.write(`ewp inspect: ${inspector.url} (ledger: ${label}, read-only). Ctrl-C to stop.\n`);
    if (values.open) openBrowser(inspector.url, io);
    const signal = await untilSignal();
    io.stderr.write(`ewp inspect: ${signal}, shutting down\n`);
    await inspector.close();
  } catch (error) {
    io.stderr.write(`ewp inspect: ${(error as Error).message}\n`);
    return EXIT_USAGE;
  } finally {
    await store.close();
  }
  return EXIT_OK;
};
