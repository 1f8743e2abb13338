import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import {
  type AdapterConformanceReport,
  type AdapterSubject,
  type ExpectedLossFile,
  jsonTwinPath,
  lossReportJson,
  lossTotals,
  renderLossReportMarkdown,
  runAdapterConformanceReport,
  writeLossReport,
} from '@ewp/conformance/adapter-suite';
import { type CliIO, type Command, EXIT_OK, EXIT_SOME_FAILED, EXIT_USAGE } from '../cli-io.js';
import { isNotInstalled as notInstalled } from '../optional-package.js';
import { usageError } from '../verb-arguments.js';
import { namesTarget, TargetError, type TargetOptions, targetSubject } from './conformance-target.js';

const HELP = `usage: ewp conformance [--adapter NAME]... [--module MODULE]... [--json] [--report PATH]
       ewp conformance (--pg URL | --mem0 URL | --zep URL) [--secret-file FILE] [--json] [--report PATH]

Run the shared adapter conformance suite (every pack fixture written through the store, read
back, diffed field by field and re-evaluated; partial searches must say DEGRADED; records the
store wrote on its own must read as untrusted) for every available adapter, offline, or against
your own deployment.

  --adapter NAME   only this adapter (mem0-oss, mem0-hosted, zep, ...) or family (mem0); repeatable
  --module MODULE  also load adapters from a module exporting conformanceSubjects(); repeatable
  --json           print the JSON report instead of the Markdown table
  --report PATH    write the Markdown report to PATH and its JSON twin beside it (.json),
                   keeping the rows of adapters not run this time

Your own deployment (one live store per run; the pack is written into a namespace the run
creates, ewp-conformance-<random>, and removes afterwards: schemas, users or graphs):
  --pg URL         a PostgreSQL server (postgres://user@host:port/db; password from
                   --secret-file, PGPASSWORD or ~/.pgpass)
  --mem0 URL       the Mem0 platform (https://api.mem0.ai) or a self-hosted Mem0 server
                   (MemoryClient host; API key from --secret-file or MEM0_API_KEY)
  --zep URL        Zep cloud (https://api.getzep.com/api/v2) or a Zep-compatible Graphiti
                   gateway (ZepClient baseUrl; API key from --secret-file or ZEP_API_KEY)
  --secret-file F  the password or API key, in a file (never on the command line: a URL
                   holding a password is refused)

Offline, adapters are discovered from @ewp/langchain/conformance (its in-memory store) and, in a
checkout of the repository, from the Mem0 and Zep test doubles (@ewp/mem0-testing/conformance,
@ewp/zep-testing/conformance: private packages, never published); elsewhere Mem0 and Zep need
--mem0 URL or --zep URL. One that is not installed is skipped with a note on stderr.
Exit codes: 0 every adapter passed; 1 a loss that is not listed, a listed loss that no longer
happens, or an error; 2 bad arguments or no adapter available.
`;

/**
 * Where adapters are discovered by default: the ones that run offline. Mem0's and Zep's run on test
 * doubles (local servers, an offline Memory) kept in the repository's private packages, so only a
 * checkout has them.
 */
export const ADAPTER_MODULES = ['@ewp/mem0-testing/conformance', '@ewp/zep-testing/conformance', '@ewp/langchain/conformance'];

/** What to say when the test doubles of a store are not installed: the live-store option that runs it instead. */
const NEEDS_A_STORE: Record<string, string> = {
  '@ewp/mem0-testing/conformance': 'mem0 (mem0-oss, mem0-hosted) runs against your Mem0: --mem0 URL',
  '@ewp/zep-testing/conformance': 'zep runs against your Zep: --zep URL',
};

/** Imports a module by specifier; injectable so tests can provide adapters. */
export type ModuleLoader = (specifier: string) => Promise<unknown>;

/**
 * Load the adapters of every module. Modules that are not installed are listed in `skipped` with the
 * reason; the caller says so only when it matters (no filter, or a wanted adapter was not found).
 */
async function discover(specifiers: string[], load: ModuleLoader, io: CliIO): Promise<{ subjects: AdapterSubject[]; skipped: string[] } | undefined> {
  const subjects: AdapterSubject[] = [];
  const skipped: string[] = [];
  for (const specifier of specifiers) {
    let mod: unknown;
    try {
      mod = await load(specifier);
    } catch (error) {
      if (notInstalled(error)) {
        const live = NEEDS_A_STORE[specifier];
        skipped.push(
          live === undefined
            ? `ewp conformance: skipped ${specifier} (not installed: ${String((error as Error).message).split('\n')[0]})\n`
            : `ewp conformance: skipped ${live} (offline, on the test doubles of ${specifier.split('/').slice(0, 2).join('/')}, only in a checkout of the repository)\n`,
        );
        continue;
      }
      io.stderr.write(`ewp conformance: cannot load ${specifier}: ${(error as Error).message}\n`);
      return undefined;
    }
    const factory = (mod as { conformanceSubjects?: unknown }).conformanceSubjects;
    if (typeof factory !== 'function') {
      io.stderr.write(`ewp conformance: ${specifier} does not export conformanceSubjects()\n`);
      return undefined;
    }
    subjects.push(...(factory() as AdapterSubject[]));
  }
  return { subjects, skipped };
}

/** The command line as run, for the report's `generated_by` (arguments quoted only when they need it). */
function commandLine(args: string[]): string {
  const quote = (a: string) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replaceAll("'", "'\\''")}'`);
  return ['ewp', 'conformance', ...args].map(quote).join(' ');
}

/** `ewp conformance` with an injectable module loader (the exported command uses `import()`). */
export async function runConformanceCommand(args: string[], io: CliIO, load: ModuleLoader = (s) => import(s)): Promise<number> {
  let values: { adapter?: string[]; module?: string[]; json?: boolean; report?: string; help?: boolean } & TargetOptions;
  try {
    ({ values } = parseArgs({
      args,
      options: {
        adapter: { type: 'string', multiple: true },
        module: { type: 'string', multiple: true },
        json: { type: 'boolean' },
        report: { type: 'string' },
        pg: { type: 'string' },
        mem0: { type: 'string' },
        zep: { type: 'string' },
        'secret-file': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    return usageError('conformance', (error as Error).message, io);
  }
  if (values.help) {
    io.stdout.write(HELP);
    return EXIT_OK;
  }
  if (values.report !== undefined && !values.report.endsWith('.md')) {
    io.stderr.write(`ewp conformance: --report needs a .md path (its JSON twin goes beside it), got ${JSON.stringify(values.report)}\n`);
    return EXIT_USAGE;
  }
  let live: AdapterSubject | undefined;
  if (namesTarget(values)) {
    if (values.adapter !== undefined || values.module !== undefined) return usageError('conformance', '--adapter and --module do not go with a live store', io);
    try {
      live = await targetSubject(values, io.cwd, io.env, load);
    } catch (error) {
      if (TargetError.isInstance(error)) return usageError('conformance', error.message, io);
      if (!notInstalled(error)) throw error;
      const pkg = values.mem0 !== undefined ? '@ewp/mem0' : values.zep !== undefined ? '@ewp/zep' : '@ewp/postgres';
      return usageError('conformance', `this live store needs ${pkg}, which is not installed: npm install ${pkg} (and its client SDK), then run again`, io);
    }
  } else if (values['secret-file'] !== undefined) {
    return usageError('conformance', '--secret-file goes with --pg, --mem0 or --zep', io);
  }
  const subjects = live === undefined ? await installedSubjects(values, io, load) : [live];
  if (subjects === undefined) return EXIT_USAGE;
  const reports: AdapterConformanceReport[] = [];
  const expected: Record<string, ExpectedLossFile> = {};
  for (const subject of subjects) {
    const report = await runAdapterConformanceReport(subject);
    reports.push(report);
    expected[subject.name] = subject.expectedLoss;
    const t = lossTotals(report);
    io.stderr.write(
      `${subject.name}: ${report.fixtures} fixtures; ${t.losses} loss(es) (${t.listed} listed, ${t.unexpected} unexpected); ${report.stale.length} stale list entr${report.stale.length === 1 ? 'y' : 'ies'}; ${report.errors.length} error(s); ${t.observations} EXPECTED_DIVERGENCE observation(s), never failures: ${report.ok ? 'pass' : 'FAIL'}\n`,
    );
    for (const loss of report.unexpected) io.stderr.write(`  unexpected ${loss.class} ${loss.fixture} ${loss.field}: ${loss.detail}\n`);
    for (const stale of report.stale) io.stderr.write(`  stale ${stale.class} ${stale.fixture} ${stale.field}: no longer happens; remove it from the list\n`);
    for (const e of report.errors) io.stderr.write(`  error ${e.fixture}: ${e.message}\n`);
  }
  if (live !== undefined) io.stderr.write(`ewp conformance: removed the run's namespace from ${live.name}\n`);
  const generatedBy = commandLine(args);
  const json = lossReportJson(reports, expected, generatedBy);
  io.stdout.write(values.json ? `${JSON.stringify(json, null, 2)}\n` : renderLossReportMarkdown(json));
  if (values.report !== undefined) {
    const path = resolve(io.cwd, values.report);
    writeLossReport(path, reports, expected, generatedBy);
    io.stderr.write(`ewp conformance: wrote ${path} and ${jsonTwinPath(path)}\n`);
  }
  return reports.every((r) => r.ok) ? EXIT_OK : EXIT_SOME_FAILED;
}

/** The installed adapters (discovered, filtered by `--adapter`); undefined after a usage error was said. */
async function installedSubjects(values: { adapter?: string[]; module?: string[] }, io: CliIO, load: ModuleLoader): Promise<AdapterSubject[] | undefined> {
  const extra = (values.module ?? []).map((m) => (m.startsWith('.') || m.startsWith('/') ? pathToFileURL(resolve(io.cwd, m)).href : m));
  const discovered = await discover([...ADAPTER_MODULES, ...extra], load, io);
  if (discovered === undefined) return undefined;
  const found = discovered.subjects;
  const wanted = values.adapter ?? [];
  const subjects = wanted.length === 0 ? found : found.filter((s) => wanted.some((w) => s.name === w || s.name.startsWith(`${w}-`)));
  const unknown = wanted.filter((w) => !found.some((s) => s.name === w || s.name.startsWith(`${w}-`)));
  // A module that is not installed matters when every adapter was asked for, or a wanted one is missing.
  if (wanted.length === 0 || unknown.length > 0) for (const note of discovered.skipped) io.stderr.write(note);
  if (unknown.length > 0) {
    io.stderr.write(`ewp conformance: unknown adapter ${unknown.join(', ')}; available: ${found.map((s) => s.name).join(', ') || 'none'}\n`);
    return undefined;
  }
  if (subjects.length === 0) {
    io.stderr.write('ewp conformance: no adapter available (run against a store with --pg, --mem0 or --zep URL, install @ewp/langchain, or pass --module)\n');
    return undefined;
  }
  return subjects;
}

/** `ewp conformance`: the adapter suite for every installed adapter, with a loss report. */
export const conformanceCommand: Command = (args, io) => runConformanceCommand(args, io);
