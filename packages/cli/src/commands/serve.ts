import { isAbsolute, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { type EvidenceStore, MemoryEvidenceStore } from '@ewp/ledger';
import { type MemoryConfigInput, MemoryError, memoryLedgerFor, openSalienceStore, type SalienceStore } from '@ewp/memory';
import { assertIngestToken, isLoopbackHost, MEMORY_REST_ROUTES, MIN_INGEST_TOKEN_BYTES, readIngestTokenFile, serveStdio, startEwpHttpServer } from '@ewp/mcp';
import { type CliIO, type Command, EXIT_OK, EXIT_USAGE } from '../cli-io.js';
import { UsageError } from '../errors.js';
import { usageError } from '../verb-arguments.js';
import { LEDGER_OPTIONS, openStore } from '../open-store.js';
import { EPISTEMIC_HELP, EPISTEMIC_OPTIONS, epistemicSettings } from '../epistemic-options.js';
import { untilSignal } from '../until-signal.js';
import { PRINCIPAL_HELP, PRINCIPAL_OPTIONS, type PrincipalOptions, readPrincipalOptions } from './serve-principals.js';

const HELP = `usage: ewp serve [--db FILE | --pg URL | --json-dir DIR] [--allow-ingest] [--principal NAME]
                 [--observer P[=S,...] ...]
       ewp serve --http [HOST:]PORT [--db FILE | --pg URL | --json-dir DIR] [--ingest-token-file FILE]
                 [--token-file NAME=FILE ...] [--observer P[=S,...] ...] [--allowed-host NAME ...]

Serve EWP to MCP clients (Claude, Codex, OpenClaw, ...) over a ledger: the eight warrant tools
(ewp_warrant_now, ewp_memory_context, ewp_may_act, ...), the memory tools (memory_store,
memory_recall, memory_auto_context, memory_evidence_*), the decision tools (ewp_decisions,
ewp_recovery_plan) and resources for stored views.

  --db FILE               SQLite ledger (created when the server may write)
  --pg URL                PostgreSQL ledger
  --json-dir DIR          JSON-file ledger
  --http [HOST:]PORT      Streamable HTTP on http://HOST:PORT/mcp instead of stdio (with the memory
                          REST routes POST /v1/store, POST /v1/recall, GET /v1/evidence/:hash)
                          (HOST defaults to 127.0.0.1: loopback only unless told otherwise)
  --allowed-host NAME     HTTP only, repeatable: a host name clients may use besides loopback
                          (required when HOST is not loopback: every request's Host and Origin
                          are checked against these names)
  --allow-ingest          stdio only: this client may write (the ingest role)
  --ingest-token-file F   HTTP only: requests bearing this token (trimmed) may write;
                          the EWP_INGEST_TOKEN environment variable works too. Never pass
                          a token on the command line. At least ${MIN_INGEST_TOKEN_BYTES} bytes (openssl rand -hex 32);
                          a file readable by group or others is warned about (chmod 600).
                          Its holder is the principal operator.
${PRINCIPAL_HELP}
${EPISTEMIC_HELP}
A memory stored through the server (memory_store, POST /v1/store) has its writer's principal as
its source, never an argument's; a source argument is only one of the principal's --observer
sub-sources. ewp_may_act records its decision for callers with the ingest role only; others get
the same decision, unrecorded (recorded: false).

HTTP limits (per server): headers within 5 s and 16 KiB (else 408/431), a request within 15 s,
bodies up to 1 MiB (else 413), 128 connections (the longest-idle is closed, else 503 with
Retry-After), replies a client does not read pause its connection (docs/mcp.md).

The memory tools keep salience (recall counts, energy, importance) in <db>.salience.jsonl beside a
SQLite file or <dir>.salience.jsonl beside a JSON-file ledger, as the memory verbs do (in memory for
--pg and for a ledger in memory).

Without a way to write, the ledger is opened read-only and must exist.
With a way to write and no ledger option, the ledger lives in memory.
`;

interface ServeOptions {
  db?: string;
  pg?: string;
  jsonDir?: string;
  http?: { host: string; port: number };
  allowIngest: boolean;
  ingestToken?: string;
  allowedHosts: string[];
  principals: PrincipalOptions;
  /** The evidence-layer settings (--config's [epistemic] section, then the flags). */
  config?: MemoryConfigInput;
}

/** `[HOST:]PORT`, `HOST:PORT` with an IPv6 host in brackets. */
export function parseListenAddress(text: string): { host: string; port: number } {
  const match = /^(?:(\[[0-9a-fA-F:.]+\]|[^:[\]]+):)?(\d{1,5})$/.exec(text.trim());
  const port = match ? Number(match[2]) : Number.NaN;
  if (!match || port > 65535) throw new UsageError(`--http: expected [HOST:]PORT, got ${JSON.stringify(text)}`);
  const host = match[1]?.replace(/^\[|\]$/g, '') ?? '127.0.0.1';
  return { host, port };
}

async function readOptions(args: string[], io: CliIO): Promise<ServeOptions | 'help'> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      ...LEDGER_OPTIONS,
      http: { type: 'string' },
      'allow-ingest': { type: 'boolean' },
      'ingest-token-file': { type: 'string' },
      'allowed-host': { type: 'string', multiple: true },
      ...PRINCIPAL_OPTIONS,
      ...EPISTEMIC_OPTIONS,
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return 'help';
  if (positionals.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])}`);
  const ledgers = [values.db, values.pg, values['json-dir']].filter((v) => v !== undefined);
  if (ledgers.length > 1) throw new UsageError('give at most one of --db, --pg, --json-dir');
  const allowIngest = values['allow-ingest'] ?? false;
  const path = (p: string) => (isAbsolute(p) ? p : resolve(io.cwd, p));
  const principals = await readPrincipalOptions(values, values.http !== undefined, io, path);
  const options: ServeOptions = { allowIngest, allowedHosts: values['allowed-host'] ?? [], principals };
  try {
    options.config = epistemicSettings(values, io.cwd);
  } catch (error) {
    throw new UsageError(`${MemoryError.isInstance(error) ? `${error.code}: ` : ''}${(error as Error).message}`);
  }
  if (values.http === undefined && options.allowedHosts.length > 0) throw new UsageError('--allowed-host is for --http');
  if (values.db !== undefined) options.db = path(values.db);
  if (values.pg !== undefined) options.pg = values.pg;
  if (values['json-dir'] !== undefined) options.jsonDir = path(values['json-dir']);
  if (values.http !== undefined) {
    // On HTTP the role would go to every caller that can reach the port.
    if (allowIngest) throw new UsageError('--allow-ingest is stdio only; over HTTP use --ingest-token-file or EWP_INGEST_TOKEN');
    options.http = parseListenAddress(values.http);
    const tokenFile = values['ingest-token-file'];
    if (tokenFile !== undefined) {
      let read: { token: string; warning?: string };
      try {
        read = await readIngestTokenFile(path(tokenFile));
      } catch (error) {
        throw new UsageError(`--ingest-token-file: cannot read ${tokenFile}: ${(error as Error).message}`);
      }
      if (read.token === '') throw new UsageError(`--ingest-token-file: ${tokenFile} is empty`);
      if (read.warning !== undefined) io.stderr.write(`ewp serve: warning: ${read.warning}\n`);
      options.ingestToken = read.token;
    } else if (io.env.EWP_INGEST_TOKEN?.trim()) {
      options.ingestToken = io.env.EWP_INGEST_TOKEN.trim();
    }
    if (options.ingestToken !== undefined) {
      try {
        assertIngestToken(options.ingestToken);
      } catch (error) {
        throw new UsageError((error as Error).message);
      }
    }
  } else if (values['ingest-token-file'] !== undefined) {
    throw new UsageError('--ingest-token-file is for --http; on stdio the operator grants the role with --allow-ingest');
  }
  return options;
}

async function openLedger(options: ServeOptions, canWrite: boolean): Promise<{ store: EvidenceStore; label: string }> {
  const chosen = options.db ?? options.pg ?? options.jsonDir;
  if (chosen === undefined) {
    if (!canWrite) {
      throw new UsageError('--db is required (or --pg / --json-dir) when the server cannot write: it serves an existing ledger read-only');
    }
    return { store: new MemoryEvidenceStore(), label: 'in memory (lost on exit)' };
  }
  const store = await openStore({
    ...(options.db === undefined ? {} : { db: options.db }),
    ...(options.pg === undefined ? {} : { pg: options.pg }),
    ...(options.jsonDir === undefined ? {} : { jsonDir: options.jsonDir }),
    readOnly: !canWrite,
  });
  const where = options.db ?? options.jsonDir ?? 'PostgreSQL';
  return { store, label: `${where}${canWrite ? '' : ' (read-only)'}` };
}

/**
 * `ewp serve`: the MCP server over a ledger, on stdio (until the input ends) or Streamable HTTP
 * (until SIGINT/SIGTERM). stdout is the protocol channel on stdio, so everything else goes to stderr.
 */
export const serveCommand: Command = async (args, io) => {
  let options: ServeOptions | 'help';
  try {
    options = await readOptions(args, io);
  } catch (error) {
    return usageError('serve', (error as Error).message, io);
  }
  if (options === 'help') {
    io.stdout.write(HELP);
    return EXIT_OK;
  }
  const canWrite = options.http ? options.ingestToken !== undefined || options.principals.tokens.length > 0 : options.allowIngest;
  let ledger: { store: EvidenceStore; label: string };
  try {
    ledger = await openLedger(options, canWrite);
  } catch (error) {
    io.stderr.write(`ewp serve: ${(error as Error).message}\n`);
    return EXIT_USAGE;
  }
  // Salience in the side file the memory verbs use (<db>.salience.jsonl, <dir>.salience.jsonl), in memory otherwise.
  let salience: SalienceStore;
  try {
    // The server is the side file's one writer while it runs (its lock); a CLI verb beside it only reads it.
    salience = openSalienceStore(
      {
        ...(options.db === undefined ? {} : { db: options.db }),
        ...(options.jsonDir === undefined ? {} : { jsonDir: options.jsonDir }),
      },
      { onWarning: (message) => io.stderr.write(`ewp serve: warning: ${message}\n`) },
    );
  } catch (error) {
    await ledger.store.close();
    io.stderr.write(`ewp serve: ${(error as Error).message}\n`);
    return EXIT_USAGE;
  }
  // The store's one memory layer, made here with the settings; the tools and routes then share it.
  memoryLedgerFor(ledger.store, undefined, { salience, ...(options.config === undefined ? {} : { config: options.config }) });
  try {
    if (options.http) {
      const server = await startEwpHttpServer({
        store: ledger.store,
        host: options.http.host,
        port: options.http.port,
        allowedHosts: options.allowedHosts,
        ...(options.ingestToken === undefined ? {} : { ingestToken: options.ingestToken }),
        principals: options.principals.tokens,
        observers: options.principals.observers,
        // The memory layer's REST bridge: POST /v1/store (ingest token), POST /v1/recall, GET /v1/evidence/:hash.
        routes: MEMORY_REST_ROUTES,
        salience,
      });
      if (!isLoopbackHost(options.http.host) && canWrite) {
        io.stderr.write('ewp serve: warning: this server is reachable beyond loopback over plain HTTP; the ingest token travels in clear (put TLS in front)\n');
      }
      io.stderr.write(
        `ewp serve: listening on ${server.url} (ledger: ${ledger.label}; ingest role: ${canWrite ? `bearer tokens of ${[...(options.ingestToken === undefined ? [] : ['operator']), ...options.principals.tokens.map((t) => t.principal)].join(', ')}` : 'none, read-only'})\n`,
      );
      const signal = await untilSignal();
      io.stderr.write(`ewp serve: ${signal}, shutting down\n`);
      await server.close();
    } else {
      io.stderr.write(`ewp serve: MCP on stdio (ledger: ${ledger.label}; ingest role: ${canWrite ? 'granted' : 'none'})\n`);
      // The process's own standard input is left to serveStdio, which reads it through one reused buffer.
      await serveStdio({
        store: ledger.store,
        allowIngest: options.allowIngest,
        ...(options.principals.principal === undefined ? {} : { principal: options.principals.principal }),
        observers: options.principals.observers,
        ...(io.processStdin ? {} : { input: io.stdin }),
        output: io.stdout,
        salience,
      });
    }
  } catch (error) {
    io.stderr.write(`ewp serve: ${(error as Error).message}\n`);
    return EXIT_USAGE;
  } finally {
    try {
      salience.close();
    } catch (error) {
      io.stderr.write(`ewp serve: warning: salience not saved: ${(error as Error).message}\n`);
    }
    await ledger.store.close();
  }
  return EXIT_OK;
};
