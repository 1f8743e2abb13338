/**
 * `ewp ingest`: the operator's path from JSON files into a ledger (docs/spec/store-contract.md §4), so
 * agents can be served read-only. The arguments and the report are this file's; every view goes
 * through the one write path (`@ewp/tools/write-path`): admitted once (decoded, sealed, attestation
 * checked), then written in batches with a per-view fallback and one outcome per view.
 */
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { type EvidenceView, parseEvaluatedAt } from '@ewp/core';
import type { EvidenceStore } from '@ewp/ledger';
import { type AttestationSurface, admitView, type WriterAttestation, writeViews } from '@ewp/tools/write-path';
import { type CliIO, type Command, EXIT_OK, EXIT_SOME_FAILED, EXIT_USAGE } from '../cli-io.js';
import { LEDGER_OPTIONS, ledgerSpec, openStore, StoreSpecError } from '../open-store.js';
import { OutputSink } from '../output-sink.js';
import { IngestReport } from '../render/ingest-report.js';
import { parseVerbArguments, usageError } from '../verb-arguments.js';
import { DEFAULT_MAX_VIEW_BYTES, describeError, MAX_VIEW_BYTES_OPTION, parseByteSize, readViews } from '../view-file.js';

const HELP = `usage: ewp ingest <files...> (--db ./ewp.sqlite | --pg <url> | --json-dir <dir>)
                  [--attest-trusted-origins] [--evaluated-at T] [--batch N] [--max-view-bytes N]

Store EvidenceViews in a ledger. Each file holds one view, a JSON list of views, an object with a
"views" list, or JSONL (one view per line), in UTF-8.

  --db PATH                   SQLite ledger (created with its directories if missing)
  --pg URL                    PostgreSQL ledger (postgres://user@host:port/db?schema=name)
  --json-dir DIR              JSON-file ledger directory
  --attest-trusted-origins    store views whose records claim a trusted origin (tool, document, human,
                              api, vendor, sensor): the operator vouches that those origins are real
  --evaluated-at T            the instant of the summary table (default: now, UTC); storing never uses it
  --batch N                   views per transaction on the store's batched path (default 500); a refused
                              view is retried alone, so it never rolls back its neighbours
  --max-view-bytes N          longest line, list element or document read (default 64MiB; suffixes
                              KiB, MiB, GiB); a longer one stops reading that file
  -                           as a file name: read stdin

Exit: 0 every view stored (identical re-ingests included), 1 some view refused, 2 unusable arguments,
input file or ledger (a full disk included), or stdout closed before the report was written (the views
are still all stored; one line on stderr says so).
`;

/** How the operator attests trusted origins on the command line. */
const CLI_ATTESTATION: AttestationSurface = {
  how: 'pass --attest-trusted-origins (the operator vouches that they are real)',
  path: 'record',
};

/** Views per transaction on the batched path (tunable with --batch). */
const DEFAULT_BATCH = 500;

/** Sizes of the named files, when all are regular files (stdin has none). */
async function totalSize(files: readonly string[], cwd: string): Promise<number | undefined> {
  let total = 0;
  for (const file of files) {
    if (file === '-') return undefined;
    try {
      const s = await stat(resolve(cwd, file));
      if (!s.isFile()) return undefined;
      total += s.size;
    } catch {
      return undefined;
    }
  }
  return total;
}

export const ingestCommand: Command = async (args: string[], io: CliIO) => {
  const parsed = parseVerbArguments('ingest', HELP, io, () => parse(args));
  if (typeof parsed === 'number') return parsed;
  const { values, positionals } = parsed;
  if (positionals.length === 0) return usageError('ingest', 'no input files (give files, or - for stdin)', io);
  // T is checked before the ledger is opened: a bad T creates nothing.
  const evaluatedAt = values['evaluated-at'] ?? new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
  try {
    parseEvaluatedAt(evaluatedAt);
  } catch (error) {
    io.stderr.write(`ewp ingest: --evaluated-at: ${describeError(error).message}; nothing stored\n`);
    return EXIT_USAGE;
  }
  const batchSize = Number(values.batch ?? DEFAULT_BATCH);
  if (!Number.isInteger(batchSize) || batchSize < 1) return usageError('ingest', `--batch must be a positive integer, got ${JSON.stringify(values.batch)}`, io);
  const maxViewBytes = values[MAX_VIEW_BYTES_OPTION] === undefined ? DEFAULT_MAX_VIEW_BYTES : parseByteSize(values[MAX_VIEW_BYTES_OPTION]);
  if (maxViewBytes === undefined)
    return usageError('ingest', `--${MAX_VIEW_BYTES_OPTION}: expected a size such as 65536 or 64MiB, got ${JSON.stringify(values[MAX_VIEW_BYTES_OPTION])}`, io);
  const writer: WriterAttestation = { attested: values['attest-trusted-origins'] ?? false, trustedOrigins: true, surface: CLI_ATTESTATION };
  const tty = io.stderr.isTTY === true;
  const out = new OutputSink(io.stdout);
  const report = new IngestReport(io.stderr, evaluatedAt, tty, tty ? await totalSize(positionals, io.cwd) : undefined, () => out.open);
  /** A file could not be read on (unreadable, not UTF-8, a view over the size limit). */
  let unusableInput = false;
  // The ledger is opened on the first view worth storing: a run with no valid view creates nothing.
  let store: EvidenceStore | undefined;
  let unusableLedger = false;
  const open = async (): Promise<EvidenceStore | undefined> => {
    if (store !== undefined || unusableLedger) return store;
    try {
      store = await openStore(ledgerSpec(values, io.cwd));
    } catch (error) {
      io.stderr.write(`ewp ingest: ${StoreSpecError.isInstance(error) ? '' : 'unusable ledger: '}${(error as Error).message}\n`);
      unusableLedger = true;
    }
    return store;
  };
  /** Write a batch through the write path and report each view's outcome; false when the ledger failed. */
  const flush = async (views: EvidenceView[], labels: string[]): Promise<boolean> => {
    if (views.length === 0) return true;
    const s = await open();
    if (s === undefined) return false;
    const { outcomes, failure } = await writeViews(s, views, { batchSize: views.length });
    for (const [i, outcome] of outcomes.entries()) {
      if (outcome.refusal === undefined) report.committed(outcome.view, outcome.result.status);
      else report.refuse(labels[i] as string, describeError(outcome.refusal));
    }
    await out.write(report.takeLines());
    if (failure === undefined) return true;
    io.stderr.write(`${tty ? '\r\x1b[K' : ''}ewp ingest: unusable ledger: ${describeError(failure).message}; stopped after ${report.outcomeLine()}\n`);
    unusableLedger = true;
    return false;
  };
  let views: EvidenceView[] = [];
  let labels: string[] = [];
  reading: for (const file of positionals) {
    // Read as a stream: a batch is committed before more of the file is read, so memory stays bounded.
    for await (const items of readViews(file, io.cwd, io.stdin, { maxViewBytes, onBytes: (n) => (report.bytesRead += n) })) {
      for (const item of items) {
        if (item.error) {
          // A refusal of the file itself (unreadable, not UTF-8, too long) ends that file: exit 2.
          if (item.stopsFile) unusableInput = true;
          else report.seen += 1;
          report.refuse(item.label, item.error);
          continue;
        }
        report.seen += 1;
        try {
          views.push(admitView(item.value, writer));
          labels.push(item.label);
        } catch (error) {
          report.refuse(item.label, describeError(error));
          continue;
        }
        if (views.length >= batchSize) {
          const ok = await flush(views, labels);
          views = [];
          labels = [];
          if (!ok) break reading;
        }
      }
      report.drawProgress();
    }
  }
  if (!unusableLedger) await flush(views, labels);
  report.drawProgress(true);
  await store?.close();
  await out.write(report.closingTable());
  if (!out.open) {
    io.stderr.write(`ewp ingest: stdout closed (${out.closedBy}), so the report was cut short; the run went on: ${report.outcomeLine()}\n`);
  }
  if (unusableLedger || unusableInput || !out.open) return EXIT_USAGE;
  if (store === undefined && report.refused > 0) io.stderr.write('no view was valid: no ledger was opened or created\n');
  if (report.refused > 0) io.stderr.write(`${report.refused} view(s) not stored\n`);
  return report.refused > 0 ? EXIT_SOME_FAILED : EXIT_OK;
};

function parse(args: string[]) {
  return parseArgs({
    args,
    allowPositionals: true,
    options: {
      ...LEDGER_OPTIONS,
      'attest-trusted-origins': { type: 'boolean' },
      'evaluated-at': { type: 'string' },
      batch: { type: 'string' },
      'max-view-bytes': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}
